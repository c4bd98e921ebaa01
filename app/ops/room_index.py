"""The admin's index of every room: the database's listing marked with what this
process holds in memory.  The types are app/rooms/index_types.py's, re-exported
here for the API (which reads them beside ``with_memory``)."""

from __future__ import annotations

import time

from app.ops.live import room_line
from app.rooms.index_types import (
    INDEX_STATUSES,
    MAX_LIMIT,
    MAX_QUERY,
    IndexLine,
    IndexPage,
    IndexStatus,
    RoomQuery,
)
from app.rooms.service import RoomService

__all__ = [
    "INDEX_STATUSES",
    "MAX_LIMIT",
    "MAX_QUERY",
    "IndexLine",
    "IndexPage",
    "IndexStatus",
    "RoomQuery",
    "with_memory",
]


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
