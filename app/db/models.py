"""Tables.  A room's state is event-sourced: ``events`` holds every change that
advanced the room's seq (seats taken, matches and deals started, moves played,
bots taking a seat over), and replaying them through the engine rebuilds the
room exactly.  Moves are the events of kind ``play``; they carry their own
columns so that (room, seq) and (room, client id) are unique constraints.
``deals`` keep each deal's seed, commitment and shuffled pack, and its scores
once it is over; ``matches`` keep the cumulative totals.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.engine.rules import RuleValues
from app.engine.view_types import ScoreJson


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


def table_of(model: type[Base]) -> Table:
    """A model's table, as the ``Table`` it is (its stubs call ``__table__`` a
    FromClause, which insert, update and delete do not take)."""
    return cast(Table, model.__table__)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[RuleValues] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Room settings that are not rules: bot level, bot delay, turn clock, grace."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    """The seq of the latest event: the version that stops two writers both winning."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """A hash of the address the room was created from: to cap live rooms per address
    (MAX_ROOMS_PER_IP) without storing the address itself."""
    lease_owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The server process that runs this room's timers (bots, clock, grace), if any."""
    lease_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Unix ms until which ``lease_owner`` holds the room unless it renews; after that
    any process may take it over (app/rooms/leases.py)."""
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)
    """Listed in the lobby (GET /api/rooms/public); the same as ``options["public"]``,
    as a column so that the listing is one indexed query."""


class Seat(Base):
    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """SHA-256 of the seat's secret token; the token itself is never stored."""
    player_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """SHA-256 of the key of the browser that took the seat (app/players/players.py): what
    "My games" finds a player's seats by.  The key itself is never stored."""
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    """The account that holds the seat (app/accounts, issue 34): set when a signed-in
    person takes it, or when the player key that took it is linked to an account.
    A deleted account keeps its row (without a name), so its seats say "deleted
    player" rather than looking anonymous."""


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("room_id", "client_id", name="uq_events_room_client"),)

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``seat``, ``match``, ``deal``, ``play``, ``autoplay``, ``close``, ... (the codec's
    kinds: app/rooms/domain/events.py; ``takeback`` and ``hint`` since issue 33)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    card: Mapped[str | None] = mapped_column(String(3), nullable=True)
    take: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """``{seat}:{client's id}`` for a player's move (ids of up to 64 characters), or
    ``srv:{kind}:{seq}`` for a move the server made: never the same space."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    at_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """When the event was written (Unix ms), as the room's timers count from it."""


class DealRow(Base):
    __tablename__ = "deals"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealer: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    pack: Mapped[list[str]] = mapped_column(JSON)
    started_seq: Mapped[int] = mapped_column(Integer)
    scores: Mapped[list[ScoreJson] | None] = mapped_column(JSON, nullable=True)
    """Per seat score records (card points and sweep transfers apart) once over."""
    totals: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


class MatchRow(Base):
    __tablename__ = "matches"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    first_dealer: Mapped[int] = mapped_column(Integer)
    cumulative: Mapped[list[int]] = mapped_column(JSON)
    deals_played: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


class Transfer(Base):
    """A one-time code that moves a seat to another device ("Continue on another
    device", app/players/players.py).  Only the code's hash is kept; ``sealed`` is the
    player key XOR a pad that only the link carries, so the server cannot read it."""

    __tablename__ = "transfers"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    sealed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    """Unix ms after which the code is refused."""
    used_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Unix ms of the claim; a used code is refused (one time only)."""


class PurgedRoom(Base):
    """The tombstone of a room removed after its match finished (``krypkasino purge``,
    RETENTION_DAYS): its rows are gone, this says when and why, so that a stale link
    gets 410 "purged" instead of a plain "no such room"."""

    __tablename__ = "purged_rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(12), index=True)
    """Not unique: once a room is gone its code may be given to a new room."""
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """The room's last change (its ``updated_at``) when it was removed."""
    purged_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    reason: Mapped[str] = mapped_column(String(16))
    """``retention`` (the server's RETENTION_DAYS) or ``purge`` (the command)."""


class ChatMessage(Base):
    """A line of a room's chat (app/social/chat.py): not an event, it never moves the
    room's seq; kept with the room (and gone with it) and shown in its history."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The sender's seat; None for a spectator."""
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    text: Mapped[str] = mapped_column(String(300))
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    """A spectator's line the players did not see (the host hid spectators' chat during
    play): players are not sent it later either; the history shows it."""
    at_ms: Mapped[int] = mapped_column(BigInteger)


class AppVersion(Base):
    """A release of the server that opened this database (app/db/versions.py): the
    newest one tells an older server that it must not start on it."""

    __tablename__ = "app_versions"

    version: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The release (``app.__version__``), e.g. ``0.2.0``."""
    revision: Mapped[str] = mapped_column(String(32))
    """The schema revision (Alembic's) when that release first opened the database."""
    first_ms: Mapped[int] = mapped_column(BigInteger)
    """Unix ms when that release first opened the database."""


class ServerKey(Base):
    """A secret the server made for itself at its first start and keeps, shared by
    every process (the VAPID key pair of Web Push, issue 32)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (app/notify), under the player key that made
    it; dropped when its push service says it is gone."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    player_hash: Mapped[str] = mapped_column(String(64), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(60))
    lang: Mapped[str] = mapped_column(String(8))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PushNotice(Base):
    """A turn a player was told of (room, seq, seat): told once, whichever process
    holds the room when it comes.  Rows older than a day are dropped as new ones come."""

    __tablename__ = "push_notices"

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    at_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class PairingTicket(Base):
    """A person waiting for a game ("Find a game", app/pairing/): the queue lives here so
    that every server process sees it.  One row per player key or account: a ticket is
    ``waiting``, then ``forming`` while one process makes its table's room (until
    ``claim_until``), then ``matched`` with its room, seat and seat token, kept a few
    minutes for its player to read."""

    __tablename__ = "pairing_tickets"
    __table_args__ = (Index("ix_pairing_queue", "status", "players", "pace", "created_ms"),)

    ticket: Mapped[str] = mapped_column(String(32), primary_key=True)
    identity: Mapped[str] = mapped_column(String(80), unique=True)
    """``p:`` + a player key's hash or ``a:`` + an account id: one ticket each."""
    name: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    pace: Mapped[str] = mapped_column(String(16))
    """``live``; correspondence once such rooms exist (its own queues)."""
    bots_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds of waiting after which free seats may go to bots; None: never."""
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    """Last time its player asked about it: one not seen for a while is given up."""
    player_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    group_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    claim_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    room_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The seat's token until its player reads it (a matched row lives a few minutes)."""
    matched_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class Account(Base):
    """A person's account (app/accounts/service.py, issue 34).  Deleting an account
    scrubs its row (name, password, sessions, keys, identities) but keeps the id, so
    that the games it played stay and name a "deleted player"."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """As the person wrote it; None once deleted."""
    username_key: Mapped[str | None] = mapped_column(String(24), nullable=True, unique=True)
    """The name folded to lower case: what makes names unique case-insensitively."""
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Argon2id (argon2-cffi's encoded form); None for an account that signs in only
    through an external provider, and once deleted."""
    created_ms: Mapped[int] = mapped_column(BigInteger)
    deleted_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class AccountSession(Base):
    """A signed-in browser: the cookie carries the token, only its hash is kept."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)


class AccountKey(Base):
    """A browser's player key (its hash) taken over by an account: every device the
    person signed in on.  Seats that key took belong to the account."""

    __tablename__ = "account_keys"

    player_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    linked_ms: Mapped[int] = mapped_column(BigInteger)


class ExternalIdentity(Base):
    """An identity at an external provider (OpenID Connect: issuer and subject) that
    signs in to an account."""

    __tablename__ = "external_identities"

    issuer: Mapped[str] = mapped_column(String(255), primary_key=True)
    subject: Mapped[str] = mapped_column(String(255), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_ms: Mapped[int] = mapped_column(BigInteger)


class SignInFailure(Base):
    """A failed sign-in, counted per account and per address (``scope``) to slow down
    password guessing across every server process (app/accounts/attempts.py)."""

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(100), index=True)
    """``account:<name folded>`` or ``address:<client address>``."""
    at_ms: Mapped[int] = mapped_column(BigInteger)


class RatedMatchRow(Base):
    """A rated room's finished match, rated once (app/ratings/ratings.py): the row's
    primary key is what makes a second rating of the same match fail, whichever server
    process tries.  ``void``: looked at and not rated (one account in two seats, or
    whoever left could no longer be told)."""

    __tablename__ = "rated_matches"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
    at_ms: Mapped[int] = mapped_column(BigInteger)
    """When the match ended (its last play), Unix ms."""
    void: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingResult(Base):
    """One seat of a rated match: its standing and its rating before and after (a bot's
    is its level's anchor both times)."""

    __tablename__ = "rating_results"
    __table_args__ = (
        ForeignKeyConstraint(
            ["room_id", "match_no"],
            ["rated_matches.room_id", "rated_matches.match_no"],
            ondelete="CASCADE",
        ),
    )

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rank: Mapped[int] = mapped_column(Integer)
    """0 for the best standing; ties share; whoever left is last."""
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    total: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


class Rating(Base):
    """An account's rating at one player count (app/ratings/model.py)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_players_ordinal", "players", "ordinal"),)

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """mu - 3 sigma, what the leaderboard ranks by (a column, so that it can be sorted
    by an index)."""
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class OidcPending(Base):
    """A sign-in through the OpenID Connect provider under way (app/accounts/oidc.py):
    what its callback needs, keyed by the hash of its state; taken (deleted) once."""

    __tablename__ = "oidc_pending"

    state_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    nonce: Mapped[str] = mapped_column(String(128))
    code_verifier: Mapped[str] = mapped_column(String(128))
    redirect_uri: Mapped[str] = mapped_column(String(2048))
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    """Unix ms after which the callback is refused (and the row dropped)."""


class AnalysisRow(Base):
    """The coach's analysis of one finished deal (app/coach): queued when the deal
    ends or is first asked for, computed once by whichever process claims it (a lease
    on the row), kept with the room and gone with it."""

    __tablename__ = "analyses"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``queued``, ``running`` or ``done``."""
    seed: Mapped[str] = mapped_column(String(64))
    """The sample seed: the analysis is a function of the deal and this."""
    done: Mapped[int] = mapped_column(Integer, default=0)
    """Plays rated so far (they are in ``result["plays"]``, so a restart goes on)."""
    total: Mapped[int] = mapped_column(Integer)
    """Plays of the deal."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Unix ms until which ``lease_owner`` computes it; after that anyone may."""
    queued_ms: Mapped[int] = mapped_column(BigInteger)
    """When it was queued (Unix ms): the oldest is computed first."""
