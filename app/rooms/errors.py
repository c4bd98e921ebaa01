"""Refusals of the room service: a wire error code, a message, an HTTP status.

They live apart from the service so that the repository can raise one too
(``RoomPurged``, when a room's rows are gone but its tombstone says why)
without importing the service that imports it.
"""

from __future__ import annotations

from datetime import datetime, timezone


class ServiceError(Exception):
    """A refused command: a protocol error code, a message, and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def _utc(when: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


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
            "purged",
            f"this room was removed on {self.purged_at:%Y-%m-%d} after {self.days} days "
            f"without play (its match finished on {self.finished_at:%Y-%m-%d})", 410)

    def details(self) -> dict[str, object]:
        """What a client needs to say it in its own language."""
        return {"purged_at": self.purged_at.isoformat(), "finished_at": self.finished_at.isoformat(),
                "days": self.days}


UNAVAILABLE = "unavailable"
"""The database did not answer: nothing was stored; the same command (a play with
the same id) may be sent again and is never applied twice."""
BUSY = "busy"
RETRYABLE = frozenset({UNAVAILABLE, BUSY})


def unavailable() -> ServiceError:
    return ServiceError(UNAVAILABLE, "the game's database is not answering; nothing was "
                        "changed, try again (a play with the same id is never played twice)",
                        503)
