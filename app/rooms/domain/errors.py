"""Refusals of the room service: a domain error code and a message, nothing more.

The service says *what* went wrong; only ``app/api`` decides how that looks on
the wire (``app/api/errors.py`` maps each code to an HTTP status, and to the
code a WebSocket ``error`` carries).  They live apart from the service so that
the repository can raise one too (``RoomPurged``, when a room's rows are gone
but its tombstone says why) without importing the service that imports it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import RoomState


class ErrorCode(StrEnum):
    """Every code the room service (and the operator commands) may refuse with.

    A refused move also carries the engine's own code (``app/engine/errors.py``,
    the codes of scenarios/FORMAT.md), passed through unchanged."""

    BAD_REQUEST = "bad_request"
    BAD_MESSAGE = "bad_message"
    NOT_FOUND = "not_found"
    UNAUTHORIZED = "unauthorized"
    ROOM_FULL = "room_full"
    NOT_YOUR_TURN = "not_your_turn"
    DEAL_OVER = "deal_over"
    NOT_FINISHED = "not_finished"
    NO_REMATCH_OFFER = "no_rematch_offer"
    """A rematch decline with no offer open (issue 33)."""
    NO_REMATCH = "no_rematch"
    """A rematch asked for in a challenge room (the deal of the day is played once)."""
    CLOSED = "closed"
    PURGED = "purged"
    TOO_MANY_ROOMS = "too_many_rooms"
    """One address has as many live rooms as it may."""
    SERVER_FULL = "server_full"
    """The server holds as many live rooms as it may (shown as ``too_many_rooms``)."""
    TRANSFER_USED = "transfer_used"
    TRANSFER_EXPIRED = "transfer_expired"
    DEAL_NOT_OVER = "deal_not_over"
    REVIEW_RUNNING = "review_running"
    NO_REVIEW = "no_review"
    NOT_DRIVER = "not_driver"
    NOT_IN_REVIEW = "not_in_review"
    NO_BRANCH = "no_branch"
    """A what-if move (or take-back) with no what-if open in the review (issue 31)."""
    UNAVAILABLE = "unavailable"
    """The database (or Redis) did not answer: nothing was stored; the same command
    (a play with the same id) may be sent again and is never applied twice."""
    BUSY = "busy"
    INTERNAL = "internal"
    NOT_HOST = "not_host"
    """Only the host (seat 0, who made the room) may change a room setting in play."""
    CHAT_RATE_LIMITED = "chat_rate_limited"
    REACTION_RATE_LIMITED = "reaction_rate_limited"
    NO_ASSIST = "no_assist"
    """Take-back and hint are only for one person playing against bots (issue 33)."""
    TAKEBACK_OFF = "takeback_off"
    """The room was made with take-backs off."""
    NAME_RESERVED = "name_reserved"
    """A person's name that would pass them off as a bot (app/names.py) or, for a
    spectator's chat, as a player at the table (issue 34)."""
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back"
    """No play of the person's own may be taken back now (none in this deal, a bot has
    played since, or the deal is over)."""
    ALREADY_QUEUED = "already_queued"
    """Quick pairing (issue 34): this player is waiting for a game already."""
    NOT_CORRESPONDENCE = "not_correspondence"
    """A vacation asked for in a live room (only correspondence rooms have them)."""
    NO_VACATION_LEFT = "no_vacation_left"
    """The seat used up its vacation days of this match (issue 32)."""
    ALREADY_MATCHED = "already_matched"
    """Quick pairing: cancelled too late, the ticket was seated at a table."""
    ALREADY_PLAYED = "already_played"
    """The deal of the day (issue 32): this player key has played it (or is playing it)."""
    DAILY_PRIVATE = "daily_private"
    """The deal of the day (issue 46): a play's deals are its player's until the day is
    over (a spectator's review of its room)."""


class ServiceError(Exception):
    """A refused command: a domain error code and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _utc(when: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


class RoomPurged(ServiceError):
    """The room was removed after its match had finished (``krypkasino purge`` or
    RETENTION_DAYS): 410 over HTTP, an ``error`` with code ``purged`` on the
    WebSocket, so a stale link says what happened instead of "no such room"."""

    def __init__(self, room_id: str, finished_at: datetime, purged_at: datetime) -> None:
        self.room_id = room_id
        self.finished_at = _utc(finished_at)
        self.purged_at = _utc(purged_at)
        self.days = max(0, (self.purged_at - self.finished_at).days)
        super().__init__(
            ErrorCode.PURGED,
            f"this room was removed on {self.purged_at:%Y-%m-%d} after {self.days} days "
            f"without play (its match finished on {self.finished_at:%Y-%m-%d})",
        )

    def details(self) -> dict[str, object]:
        """What a client needs to say it in its own language."""
        return {
            "purged_at": self.purged_at.isoformat(),
            "finished_at": self.finished_at.isoformat(),
            "days": self.days,
        }


UNAVAILABLE = ErrorCode.UNAVAILABLE
BUSY = ErrorCode.BUSY
RETRYABLE = frozenset({UNAVAILABLE, BUSY})


def unavailable() -> ServiceError:
    return ServiceError(
        UNAVAILABLE,
        "the game's database is not answering; nothing was "
        "changed, try again (a play with the same id is never played twice)",
    )


def refuse_closed(st: RoomState) -> None:
    """A closed room takes no more seats, plays or rematches (ops: RoomService.close_room)."""
    if st.closed is not None:
        reason = st.closed.get("reason") or "no reason given"
        raise ServiceError(ErrorCode.CLOSED, f"this room was closed ({reason})")
