"""The room service's own refusals: the codes only rooms raise, ``RoomPurged`` and
``refuse_closed``.

The codes every package shares, ``ServiceError`` itself and the storage failures live
in ``app/core/errors.py``; each feature keeps its own codes beside it (pairing's in
``app/pairing/errors.py``...).  The service says *what* went wrong; only ``app/api``
decides how that looks on the wire (``app/api/errors.py`` maps every code of every
package to an HTTP status).  They live apart from the service so that the repository
can raise one too (``RoomPurged``, when a room's rows are gone but its tombstone says
why) without importing the service that imports it.  The codes are part of the room
service's published surface: a feature that calls it tells its refusals apart by them
(pairing passes ``too_many_rooms`` on to the ticket it was making a table for).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from app.core.errors import ServiceError

if TYPE_CHECKING:
    from .state import RoomState

__all__ = ["RoomCode", "RoomPurged", "refuse_closed"]


class RoomCode(StrEnum):
    """Every code the room service (and the operator commands) refuses with beside the
    shared ones (``app.core.errors.ErrorCode``).

    A refused move also carries the engine's own code (``app/engine/errors.py``,
    the codes of scenarios/FORMAT.md), passed through unchanged."""

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
    NOT_HOST = "not_host"
    """Only the host (seat 0, who made the room) may change a room setting in play."""
    NO_ASSIST = "no_assist"
    """Take-back and hint are only for one person playing against bots (issue 33)."""
    TAKEBACK_OFF = "takeback_off"
    """The room was made with take-backs off."""
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back"
    """No play of the person's own may be taken back now (none in this deal, a bot has
    played since, or the deal is over)."""
    NOT_CORRESPONDENCE = "not_correspondence"
    """A vacation asked for in a live room (only correspondence rooms have them)."""
    NO_VACATION_LEFT = "no_vacation_left"
    """The seat used up its vacation days of this match (issue 32)."""


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
            RoomCode.PURGED,
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


def refuse_closed(st: RoomState) -> None:
    """A closed room takes no more seats, plays or rematches (ops: a ``CloseRoom``)."""
    if st.closed is not None:
        reason = st.closed.get("reason") or "no reason given"
        raise ServiceError(RoomCode.CLOSED, f"this room was closed ({reason})")
