"""The admin's index of every room: what the database lists (app/db/admin_reads.py)
and what the admin API answers with, as plain types.

They live here, not in the database layer, because the API must not import that
layer (tests/test_architecture.py): it is handed the read function through
``DatabaseFacts`` (app/services.py) and speaks of its answers in these words.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal, TypedDict

from app.ops.live import RoomLine, room_line
from app.rooms.service import RoomService
from app.wire.view import ClosedView

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


def with_memory(lines: list[IndexLine], service: RoomService) -> None:
    """Mark the rooms of a database listing that this process holds, with their live
    line (connections, bot, idle); the status, from memory, may be a step newer."""
    now = time.monotonic()
    for line in lines:
        rt = service.rooms.get(line["room_id"])
        if rt is None:
            continue
        live = room_line(rt, now)
        line["in_memory"], line["live"] = True, live
        if live["closed"]:
            line["status"] = "closed"
        elif live["status"] in INDEX_STATUSES:
            line["status"] = live["status"]
