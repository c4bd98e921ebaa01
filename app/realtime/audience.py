"""This process's WebSocket connections by room, with what the features beside play need
to know of each: its seat, and who it is in a shared review.

The hub (``hub.py``) owns the game's fan-out and knows connections only as sinks
of an audience; reviews and seat moves need to address connections one by one
(each hears its own review identity) and by seat (the connections of a seat that
moved to another device are told so and closed).  Keeping that here leaves the
hub's hot path alone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from app.wire import error_message

log = logging.getLogger("krypkasino.rooms")

CLOSE_SEAT_MOVED = 4001
"""WebSocket close code after a ``seat_moved`` error: the seat continues elsewhere."""
MOVED_MESSAGES = {
    "transfer": "this seat continues on another device (a transfer link was opened); "
    "you can watch the game from here",
    "reclaim": "this seat was taken up again from another device with the same player "
    "key; you can watch the game from here",
}


@dataclass(slots=True)
class Viewer:
    """One connection of a room held by this process."""

    sink: Any
    seat: int | None
    review_id: str | None = None
    """The connection's participant id in shared reviews, once it has said its key."""
    name: str | None = None
    """The display name it gave for reviews (a spectator has no seat name)."""
    moved: bool = False
    """Its seat moved to another device: it may no longer act for the seat (its socket
    is being closed)."""


class Audience:
    def __init__(self) -> None:
        self.rooms: dict[str, dict[Any, Viewer]] = {}

    def attach(self, room_id: str, sink: Any, seat: int | None) -> Viewer:
        viewer = Viewer(sink, seat)
        self.rooms.setdefault(room_id, {})[sink] = viewer
        return viewer

    def detach(self, room_id: str, sink: Any) -> Viewer | None:
        held = self.rooms.get(room_id)
        if held is None:
            return None
        viewer = held.pop(sink, None)
        if not held:
            del self.rooms[room_id]
        return viewer

    def get(self, room_id: str, sink: Any) -> Viewer | None:
        return self.rooms.get(room_id, {}).get(sink)

    def viewers(self, room_id: str) -> list[Viewer]:
        return list(self.rooms.get(room_id, {}).values())

    def kick(self, room_id: str, seat: int, reason: str) -> int:
        """Tell this process's connections of ``seat`` that the seat moved, and close
        them: their token is no longer the seat's.  Returns how many there were."""
        message = error_message(
            "seat_moved", MOVED_MESSAGES.get(reason, "this seat moved"), reason=reason
        )
        moved = [v for v in self.viewers(room_id) if v.seat == seat]
        for viewer in moved:
            viewer.moved = True
            viewer.sink.send_text(message)
            viewer.sink.close(CLOSE_SEAT_MOVED)
        if moved:
            log.info(
                "seat moved",
                extra={"room": room_id, "seat": seat, "reason": reason, "connections": len(moved)},
            )
        return len(moved)
