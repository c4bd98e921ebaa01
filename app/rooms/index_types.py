"""The admin's index of rooms, as plain types: what the database lists
(app/db/admin_reads.py), what this process holds in memory (app/ops/live.py), and
what the admin API answers with.

They live below the database layer so that the database may speak of them and the
API, which must not import that layer (tests/test_architecture.py), may too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict

from app.wire.view import ClosedView


class SeatLine(TypedDict):
    seat: int
    name: str | None
    bot: bool
    outside_bot: bool
    """Held by a bot account (issue 51)."""
    autoplay: bool
    connections: int


class RoomLine(TypedDict):
    """A room held in this process's memory, as /admin and ``rooms close`` show it."""

    room_id: str
    code: str
    status: str
    players: int
    seq: int
    deal_no: int
    match_no: int
    seats: list[SeatLine]
    connections: int
    spectators: int
    bot_turn: bool
    idle_seconds: float
    closed: ClosedView | None


IndexStatus = Literal["waiting", "playing", "finished", "closed"]
"""A room's status as the admin sees it: ``closed`` is a room an operator ended
(stored as finished, with a ``close`` event); ``finished`` then means played out."""
INDEX_STATUSES: tuple[IndexStatus, ...] = ("waiting", "playing", "finished", "closed")
MAX_LIMIT = 100
"""Rooms a page holds at most: every search is bounded, whatever it matches."""
MAX_QUERY = 100
"""Characters of a search at most."""


@dataclass(frozen=True, slots=True)
class RoomQuery:
    """One page of the index: ``q`` matches a room id or code by its start, or a
    player's name anywhere in it, case-insensitively; newest activity first."""

    q: str = ""
    status: IndexStatus | None = None
    limit: int = 50
    offset: int = 0


class StoredSeat(TypedDict):
    seat: int
    name: str | None
    bot: bool
    outside_bot: NotRequired[bool]
    """Held by a bot account (issue 51)."""


class IndexLine(TypedDict):
    """A room as the database holds it, and this process's memory of it if any."""

    room_id: str
    code: str
    status: IndexStatus
    players: int
    seats: list[StoredSeat]
    match_no: int
    """0 before the first match starts."""
    deal_no: int
    """The latest deal of the latest match; 0 before the first."""
    seq: int
    created_at: str
    updated_at: str
    """The last change (its latest event), ISO 8601 in UTC."""
    closed: ClosedView | None
    in_memory: bool
    """Held in this server process's memory (loaded since it started)."""
    live: RoomLine | None
    """Connections, bot, idle time: this process's view, when it holds the room."""


class IndexPage(TypedDict):
    rooms: list[IndexLine]
    total: int
    """Rooms matching the query, on every page."""
    offset: int
    limit: int
    next_offset: int | None
    """The offset of the next page; None on the last."""
