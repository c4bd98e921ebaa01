"""Tables.  A room's state is event-sourced: ``events`` holds every change that
advanced the room's seq (seats taken, matches and deals started, moves played,
bots taking a seat over), and replaying them through the engine rebuilds the
room exactly.  Moves are the events of kind ``play``; they carry their own
columns so that (room, seq) and (room, client id) are unique constraints.
``deals`` keep each deal's seed, commitment and shuffled pack, and its scores
once it is over; ``matches`` keep the cumulative totals.

The tables of people (``people_models.py``) and of what runs beside the rooms
(``feature_models.py``) are named here too: this module is where the migrations and
the stores find every table.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.core.json import JsonObject
from app.engine.rules import RuleValues
from app.engine.view_types import ScoreJson

from .base import Base, table_of
from .base import utc_now as _now


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[RuleValues] = mapped_column(JSON)
    options: Mapped[JsonObject] = mapped_column(JSON)
    """Room settings that are not rules: bot level, bot delay, turn clock, grace
    (``RoomOptions.to_stored``, read back by ``RoomOptions.from_stored``)."""
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
    club_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """A club-only room's club (issue 49): its members alone take seats; the same as
    ``options["club_id"]``, as a column for the club page's list of its rooms."""


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
    data: Mapped[JsonObject] = mapped_column(JSON, default=dict)
    """The event's other fields (app/rooms/domain/event_codec.py reads them back)."""
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


# Every other table, so that ``Base.metadata`` (and whoever imports from here) has all.
from .botplay_models import BotChallenge, BotStreamRow  # noqa: E402
from .club_models import ClubMemberRow, ClubRemovalRow, ClubRequestRow, ClubRow  # noqa: E402
from .daily_models import DailyDeal, DailyPlay  # noqa: E402
from .feature_models import (  # noqa: E402
    AnalysisRow,
    PairingTicket,
    PushNotice,
    PushSubscriptionRow,
    RoomDeadline,
    ServerKey,
)
from .ladder_models import LadderDeal, LadderPack, LadderResult  # noqa: E402
from .notice_models import (  # noqa: E402
    DeadlineNotice,
    EmailAddressRow,
    EmailDigest,
    NoticeSettingRow,
)
from .outbox_models import OutboxEventRow, OutboxHandledRow  # noqa: E402
from .people_models import (  # noqa: E402
    Account,
    AccountKey,
    AccountSession,
    ExternalIdentity,
    OidcPending,
    RatedMatchRow,
    Rating,
    RatingResult,
    SignInFailure,
)
from .tournament_models import (  # noqa: E402
    TournamentBoardRow,
    TournamentEntryRow,
    TournamentResultRow,
    TournamentRow,
    TournamentTableRow,
)

__all__ = [
    "Account",
    "AccountKey",
    "AccountSession",
    "AnalysisRow",
    "AppVersion",
    "Base",
    "BotChallenge",
    "BotStreamRow",
    "ChatMessage",
    "ClubMemberRow",
    "ClubRemovalRow",
    "ClubRequestRow",
    "ClubRow",
    "DailyDeal",
    "DailyPlay",
    "DeadlineNotice",
    "DealRow",
    "EmailAddressRow",
    "EmailDigest",
    "Event",
    "ExternalIdentity",
    "LadderDeal",
    "LadderPack",
    "LadderResult",
    "MatchRow",
    "NoticeSettingRow",
    "OidcPending",
    "OutboxEventRow",
    "OutboxHandledRow",
    "PairingTicket",
    "PurgedRoom",
    "PushNotice",
    "PushSubscriptionRow",
    "RatedMatchRow",
    "Rating",
    "RatingResult",
    "Room",
    "RoomDeadline",
    "Seat",
    "ServerKey",
    "SignInFailure",
    "TournamentBoardRow",
    "TournamentEntryRow",
    "TournamentResultRow",
    "TournamentRow",
    "TournamentTableRow",
    "Transfer",
    "table_of",
]
