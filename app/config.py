"""Settings from environment variables (pydantic-settings).

Every knob a host may turn is here, with the embedded default: SQLite under
./data/ and no Redis, so that one command runs a complete server.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .config_accounts import AccountConfig
from .config_notify import NotifyConfig
from .gc_tuning import DEFAULT_THRESHOLDS as DEFAULT_GC_THRESHOLDS
from .gc_tuning import parse_thresholds
from .proxies import DEFAULT_TRUSTED_PROXIES, parse_proxies

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/krypkasino.db"


class Settings(AccountConfig, NotifyConfig, BaseSettings):
    """Every setting: the server's own here, accounts' and notices' in their modules."""

    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL
    """SQLAlchemy async URL: sqlite+aiosqlite:///... or postgresql+asyncpg://..."""
    redis_url: str | None = None
    """Set to share rooms between several server processes (redis://host:6379/0)."""
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    """The URL printed at start and used in invite links; derived from host/port if unset."""
    log_level: str = "info"
    log_json: bool = True

    ws_compression: bool = True
    """permessage-deflate on WebSocket connections, each message compressed on its own
    (no context takeover, app/realtime/deflate.py): a patch shrinks from ~480 to ~190 bytes on
    the wire, a snapshot from ~2.7 KB to ~0.8 KB, and an idle connection keeps no
    compression state.  Turn off where CPU is tighter than bandwidth."""

    max_message_bytes: int = 4096
    """A WebSocket message larger than this closes the connection with 1009."""
    rate_per_second: float = 20.0
    rate_burst: int = 60
    """Token bucket per connection; past it messages get rate_limited errors."""
    rate_abuse_limit: int = 50
    """Rate-limited messages tolerated before the connection is closed with 1008."""
    hello_timeout: float = Field(default=10.0, gt=0)
    """Seconds from opening a WebSocket to its hello, however many messages come meanwhile."""
    hello_messages: int = Field(default=5, ge=1)
    """Messages a WebSocket may send before a hello is accepted (junk, bad tokens)."""
    ipv6_prefix: int = Field(default=64, ge=16, le=128)
    """Every per-address limit counts an IPv6 client by its network of this many bits
    (a home connection is handed a whole /64); IPv4 clients by their address
    (app/limits/clients.py).  128 counts each IPv6 address alone."""
    ws_per_ip: int = Field(default=20, ge=0)
    """Open WebSocket connections per client address or IPv6 network (0: no limit)."""
    ws_max: int | None = Field(default=None, ge=0)
    """Open WebSocket connections in this process, in all; past it a new one is refused
    with ``server_busy`` (close 1013).  Unset: three quarters of the open-files limit
    the process has once it raised it (app/limits/files.py), so that a flood of sockets
    leaves descriptors for HTTP, the database and the log; 0: no limit."""
    ws_per_room: int = Field(default=50, ge=0)
    """Open WebSocket connections per room, players and spectators (0: no limit)."""
    bad_token_per_minute: float = Field(default=10.0, ge=0)
    """Hellos with a token of no seat, per client address a minute (0: no limit)."""
    max_rooms_per_ip: int = Field(default=20, ge=0)
    """Live (waiting or playing) rooms created from one client address or IPv6 network
    (0: no limit)."""
    max_rooms_per_account: int | None = Field(default=None, ge=0)
    """Live rooms a signed-in account has made, wherever it signed in from (0: no
    limit); unset: the same number as MAX_ROOMS_PER_IP.  Every room a request makes
    counts, whatever made it: POST /api/rooms ("Play now" too), "Find a game", the deal
    of the day and "Play this deal yourself"."""
    max_rooms: int = Field(default=5000, ge=0)
    """Live rooms in total (0: no limit)."""
    abandoned_room_minutes: float = Field(default=30.0, ge=0)
    """A room in play (not a correspondence one) in which no person has played,
    pressed Continue or otherwise acted for this many minutes is closed as abandoned
    (0: never): rooms left to bots, or left by everyone, free their place under
    MAX_ROOMS_PER_IP and MAX_ROOMS within this time."""
    waiting_room_hours: float = Field(default=24.0, ge=0)
    """A room still waiting for players after this many hours without a change is
    closed (0: never)."""
    waiting_room_minutes: float = Field(default=15.0, ge=0)
    """A waiting room that nobody joined (its maker alone at the table, bots aside) and
    nobody has open is closed after this many minutes without a change (0: only
    WAITING_ROOM_HOURS applies): rooms made and left by a flood go away within
    minutes, rather than holding MAX_ROOMS for a day."""
    bots_only_delay: float = Field(default=1.0, ge=0)
    """Seconds at least between the moves of a match that bots alone play (it runs only
    while someone watches)."""
    patch_history: int = 64
    """Patches held per audience for clients that reconnect with last_seq (64 cover a
    minute or more of play; each is held for every audience of every room in memory,
    so 256 cost about a megabyte a room)."""

    default_bot_delay: float = 0.8
    """Seconds a bot waits before playing, so people can follow the game."""
    default_grace: float = 60.0
    """Seconds a disconnected player may be gone before a bot plays for them."""
    default_deal_pause: float = Field(default=30.0, ge=0, le=600)
    """Seconds a room waits between deals for every player to press Continue, when
    its creator did not choose (0: the next deal starts at once)."""
    rematch_timeout: float = Field(default=120.0, gt=0, le=3600)
    """Seconds a rematch offer waits for the other players' answers before it is
    withdrawn (issue 33)."""
    bot_budget: float = 0.5
    """Thinking time per move for the strong bot (shortened while its workers are busy)."""
    bot_workers: int | None = Field(default=None, ge=1, le=256)
    """Worker processes the strong bot thinks in; unset: one per core."""
    bot_queue: int | None = Field(default=None, ge=0)
    """Strong-bot moves that may wait for a worker (unset: four per worker); past it the
    greedy bot answers at once instead of making the table wait."""
    daily_players: str = "3,4"
    """Player counts with a deal of the day (issue 32), comma-separated (2 to 6)."""
    daily_bot_worlds: int = Field(default=200, ge=1, le=10000)
    """Worlds the strong bot searches per move in a challenge (the deal of the day): a
    fixed number, not a time budget, so that its moves follow from the seed alone."""
    daily_day_shift: int = Field(default=0, ge=-3650, le=3650)
    """For tests only: days added to the UTC date the deal of the day goes by."""
    daily_ranked_per_address: int = Field(default=1, ge=0)
    """Plays of one deal of the day ranked per client address (IPv6: its network): the
    first that many started there; later ones are scored, not ranked (0: no limit)."""
    coach_samples: int = Field(default=48, ge=1, le=10000)
    """Worlds the coach samples per play of a finished deal at first, and up to four
    times as many where a label is uncertain (docs/bots.md, "The coach")."""
    coach_lease_seconds: float = Field(default=60.0, ge=1, le=3600)
    """How long a process's claim on an analysis lasts without progress stored; after
    that (the process died) another one takes it over and goes on from there."""
    coach_queue: int = Field(default=200, ge=0)
    """Analyses that may wait at once (over every process); past it a deal's end queues
    none and a request is answered 503 ``busy``."""
    coach_on_deal_end: bool = True
    """Analyse every deal when it ends (else only when first asked for)."""
    outbox_dispatch: bool = True
    """Hand the rooms' domain events (a deal ended, a match ended...) to the features
    that follow them (app/outbox).  Off only for a process that should write and not
    dispatch (the tests stop one between a commit and its hand-over this way)."""
    outbox_poll_seconds: float = Field(default=2.0, gt=0, le=3600)
    """How often a process looks for domain events another process stored or left
    behind (its own commits hand theirs over at once)."""
    coach_workers: int = Field(default=1, ge=1, le=64)
    """Background processes the coach's analyses run in (they yield to live bot moves)."""
    coach_priority: Literal["idle", "low"] = "idle"
    """The CPU priority of the coach's processes: ``idle`` (Linux's idle scheduling
    class: only CPU time nothing else wants, so an analysis waits while the machine is
    busy) or ``low`` (nice 5: a share of the CPU even on a machine that is always busy,
    where ``idle`` would never finish one)."""
    ladder_players: int = Field(default=2, ge=2, le=6)
    """The bot ladder's table size (issue 51, docs/bots.md "The bot ladder")."""
    ladder_entrants: str = ""
    """The ladder's entrants, comma-separated bot levels (empty: every level)."""
    ladder_rules: str | None = None
    """The ladder's rule options as JSON (unset: the default rules)."""
    ladder_packs_per_hour: float = Field(default=0.0, ge=0, le=3600)
    """Ladder packs the server plays in the background, across its processes (0: none;
    ``krypkasino ladder run`` plays them on demand)."""
    ladder_strong_worlds: int = Field(default=200, ge=1, le=10000)
    """Worlds the strong level samples per move on the ladder (a fixed strength)."""
    ladder_turn_seconds: float = Field(default=20.0, ge=0.5, le=600)
    """An outside bot's time per move on the ladder, and its grace when away: then the
    rooms' stand-in plays for it, marked in the published deal."""
    clubs_owned_max: int = Field(default=3, ge=0, le=1000)
    """Open clubs one account may own (issue 49; docs/deploy.md, "Clubs")."""
    clubs_joined_max: int = Field(default=50, ge=1, le=10000)
    """Open clubs one account may be a member of, owned ones included."""
    club_members_max: int = Field(default=500, ge=1, le=100000)
    club_requests_max: int = Field(default=100, ge=1, le=10000)
    """Pending join requests one club holds."""
    club_requests_per_account: int = Field(default=10, ge=1, le=1000)
    """Pending join requests one account may have, over all clubs."""
    club_actions_per_minute: float = Field(default=20.0, ge=0)
    """Clubs made, requests, joins and new invite links per account a minute in one
    process, all at once if need be (0: no limit)."""
    club_invite_days: float = Field(default=14.0, gt=0, le=365)
    """How long a club's invite link lasts."""
    room_idle_seconds: float = Field(default=600.0, gt=0)
    """A room with no connection and nothing scheduled leaves memory after this long
    (it is reloaded from the database when next used)."""
    day_seconds: float = Field(default=86400.0, gt=0, le=86400.0)
    """For tests only: the length of a correspondence room's "day" (its days per move,
    vacation days and warnings scale with it); a room keeps the value it was made with.
    Leave it at a day in production."""
    deadline_poll_seconds: float = Field(default=5.0, gt=0, le=300)
    """Seconds at most between two looks at the correspondence rooms' deadlines that
    fell due (a process looks at once when one of its own writes makes a row due
    sooner)."""
    lease_seconds: float = Field(default=15.0, ge=1, le=300)
    """With several processes (REDIS_URL set): how long one process's hold on a room's
    timers lasts unless renewed; after a crash another process takes its bots and
    clocks over within this time."""
    heartbeat_max: float = Field(default=5.0, gt=0, le=100)
    """Seconds at most between the room service's housekeeping rounds (a third of
    LEASE_SECONDS when that is shorter): each catches up the rooms other processes
    moved, a safety net under Redis.  Tests raise it, with LEASE_SECONDS, so that
    housekeeping cannot hide what they check."""
    db_timeout: float = Field(default=10.0, gt=0)
    """Seconds a database statement or connection attempt may take before the server
    counts the database as unavailable (plays then get ``unavailable`` errors)."""

    api_docs: bool = False
    """Serve the interactive API pages /docs and /redoc. Off by default: FastAPI's pages
    load their script and styles from a CDN, which a public instance should not make its
    visitors do. /openapi.json is always served. ``./dev.sh serve`` turns them on."""

    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """Serve /metrics on its own listener at METRICS_HOST:METRICS_PORT, and not on the main
    port (app/metrics_access.py)."""
    metrics_host: str = "127.0.0.1"
    metrics_token: str | None = None
    """When set, /metrics wants ``Authorization: Bearer <token>``."""
    metrics_public: bool = False
    """Serve /metrics on the main port without a token.  Off: /metrics answers only on
    the METRICS_PORT listener, or to METRICS_TOKEN's bearer, and 404 otherwise."""

    backup_dir: str | None = None
    """Where ``migrate`` (and ``serve``) put the backup taken before a migration: unset,
    next to a SQLite file, and on PostgreSQL no backup (the command then says how to
    take one and wants ``--yes``); set, a copy in ``krypkasino backup``'s format goes
    there first on either database (docker-compose.yml sets it)."""

    retention_days: int = Field(default=0, ge=0)
    """Finished rooms whose last change is older than this many days are removed by the
    running server (a tombstone answers 410 "purged" for them); 0 keeps them forever."""
    retention_interval: float = Field(default=3600.0, gt=0)
    """Seconds between the server's retention sweeps (when RETENTION_DAYS is set)."""

    leaderboard_min_matches: int = Field(default=3, ge=1)
    """Rated matches an account must have played at a player count to be listed on that
    count's leaderboard (GET /api/leaderboard)."""
    leaderboard_size: int = Field(default=100, ge=1, le=1000)
    """Accounts a leaderboard lists at most."""
    ratings_catch_up: float = Field(default=300.0, gt=0)
    """Seconds between two looks for rated matches no process rated (one that stopped
    right after a match's last play); each process looks once when it starts too."""
    ratings_shared_days: float = Field(default=7.0, ge=0)
    """Accounts seen at one client address or with one player key within this many days
    do not change each other's ratings (0: off, and no address is kept)."""

    admin_token_hash: str | None = None
    """SHA-256 (hex) of the admin token (``krypkasino admin-token`` makes one); unset,
    the admin API and page are off (404).  The token itself is never stored."""

    gc_thresholds: str = DEFAULT_GC_THRESHOLDS
    """Garbage collector thresholds "g0,g1,g2" set as the server starts (see
    app/gc_tuning.py); empty keeps CPython's defaults."""

    ws_ping_interval: float = Field(default=25.0, gt=0)
    """Seconds of silence from a WebSocket client after which the server pings it
    (app/realtime/deflate.py); a client that has not answered 20 s later is closed (1011).
    The browser sends a message at least every 20 s, so it is pinged only when
    its page stopped (a phone asleep, a dead network)."""

    # --- HTTP abuse limits (docs/deploy.md, "Abuse limits")
    max_body_bytes: int = Field(default=16384, ge=1)
    """Largest request body, counted on the bytes actually received (chunked bodies
    too); past it the request gets 413 ``too_large`` and its connection is closed."""
    header_timeout: float = Field(default=10.0, gt=0)
    """Seconds a client has, from connecting (or from the first byte of its next request
    on a kept-alive connection), to finish sending its request headers."""
    idle_timeout: float = Field(default=5.0, gt=0)
    """Seconds an idle kept-alive HTTP connection stays open (uvicorn's
    ``timeout_keep_alive``)."""
    room_create_per_minute: int = Field(default=10, ge=0)
    """New rooms (POST /api/rooms) per client address a minute, all at once if need be;
    0 turns the limit off."""
    join_per_minute: int = Field(default=30, ge=0)
    """Seat requests (POST /api/rooms/{room}/seats) per client address a minute; 0: off."""
    code_lookup_per_minute: int = Field(default=30, ge=0)
    public_list_per_minute: int = Field(default=120, ge=0)
    """GET /api/rooms/public per client address (a lobby polls it every few seconds)."""
    """Room-code lookups (GET /api/codes/{code}) per client address a minute; 0: off."""
    trusted_proxies: str | None = None
    """Peers whose X-Forwarded-For is believed (the reverse proxy's address): comma-separated
    addresses or CIDR networks, or ``*``.  Unset: FORWARDED_ALLOW_IPS (the older name,
    uvicorn's), else DEFAULT_TRUSTED_PROXIES; see ``proxies``."""
    forwarded_allow_ips: str | None = None
    """The older name of TRUSTED_PROXIES, still read; TRUSTED_PROXIES wins when both are set."""

    @field_validator(
        "metrics_port",
        "metrics_token",
        "ws_max",
        "max_rooms_per_account",
        "trusted_proxies",
        "forwarded_allow_ips",
        "backup_dir",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """METRICS_PORT= or TRUSTED_PROXIES= (as compose files write them) mean: not set."""
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _metrics_port_is_not_the_port(self) -> Settings:
        if self.metrics_port is not None and self.metrics_port == self.port:
            raise ValueError("METRICS_PORT must differ from PORT")
        return self

    @field_validator("admin_token_hash")
    @classmethod
    def _check_admin_hash(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().lower()
        if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
            raise ValueError(
                "ADMIN_TOKEN_HASH must be the 64 hex digits of a SHA-256 "
                "(krypkasino admin-token prints one)"
            )
        return value

    @field_validator("trusted_proxies", "forwarded_allow_ips")
    @classmethod
    def _check_proxies(cls, value: str | None) -> str | None:
        if value is not None:
            parse_proxies(value)
        return value

    @model_validator(mode="after")
    def _oidc_complete(self) -> Settings:
        if self.oidc_issuer is not None and self.oidc_client_id is None:
            raise ValueError("OIDC_ISSUER needs OIDC_CLIENT_ID")
        if self.oidc_issuer is not None and not self.public_url and not _loopback(self.host):
            raise ValueError(
                "OIDC_ISSUER needs PUBLIC_URL (the address people use, such as "
                "https://play.example.com/): the provider sends browsers back to "
                "PUBLIC_URL + auth/oidc/callback, never to an address a request names"
            )
        if self.oidc_issuer is not None and "openid" not in self.oidc_scopes.split():
            self.oidc_scopes = f"openid {self.oidc_scopes}".strip()
        return self

    @property
    def proxies(self) -> str:
        """The trusted proxies as uvicorn's ``forwarded_allow_ips`` takes them."""
        chosen = self.trusted_proxies or self.forwarded_allow_ips or DEFAULT_TRUSTED_PROXIES
        return ",".join(parse_proxies(chosen))

    @field_validator("gc_thresholds")
    @classmethod
    def _check_gc_thresholds(cls, value: str) -> str:
        parse_thresholds(value)
        return value


def _loopback(host: str) -> bool:
    """Whether HOST listens on this machine only (where OIDC may go without PUBLIC_URL)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


@lru_cache
def get_settings() -> Settings:
    return Settings()
