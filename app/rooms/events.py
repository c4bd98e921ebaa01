"""The vocabulary of a room's log: the kinds of event, one event, and who made a move.

Every process, the stores (app/rooms/memory.py, app/db) and the state machine
(app/rooms/state.py) speak it, so it lives apart from the state machine: a store
that only writes and reads events need not know how a room applies them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEAT = "seat"
MATCH = "match"
DEAL = "deal"
PLAY = "play"
AUTOPLAY = "autoplay"
CLOSE = "close"
READY = "ready"
"""A player pressed Continue between deals (issue 12: the next deal waits for them)."""
OPTION = "option"
"""The host changed a room setting during play (``spectator_chat``)."""

CLOCK_MOVE = "clock"
STANDIN_MOVE = "standin"
"""What ``by`` says of a move the server made for a person: their clock ran out, or a
stand-in bot played while they were away (``srv:clock:*``, ``srv:standin:*`` ids)."""
CHANGEABLE_OPTIONS = ("spectator_chat",)
"""Room options an ``option`` event may change."""


def move_by(client_id: str | None) -> str | None:
    """Who made a play for its seat, from its stored id: None for the seat's own player
    (or the seat's own bot), ``clock`` or ``standin`` for the server."""
    if client_id is None or not client_id.startswith("srv:"):
        return None
    kind = client_id.split(":")[1]
    return kind if kind in (CLOCK_MOVE, STANDIN_MOVE) else None


@dataclass(frozen=True, slots=True)
class RoomEvent:
    """One change of a room; ``seq`` is its position in the room's gap-free log."""

    seq: int
    kind: str
    seat: int | None = None
    card: str | None = None
    take: tuple[str, ...] = ()
    client_id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    at: int = 0
    """When the event was written, in Unix milliseconds (0: not known, for events
    stored before this was recorded).  Timers count from it, so every process and
    every reload agrees on when a clock runs out or a bot is due."""
