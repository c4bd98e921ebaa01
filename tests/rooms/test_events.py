"""app/rooms/events.py: the kinds of event a room's log holds.

The state machine dispatches on an event's kind by name (``RoomState._on_{kind}``),
so a kind declared here without a transition would only fail when first written.
"""

from __future__ import annotations

from app.rooms import events
from app.rooms.state import RoomState

KINDS = [
    events.SEAT,
    events.MATCH,
    events.DEAL,
    events.PLAY,
    events.AUTOPLAY,
    events.CLOSE,
    events.READY,
    events.OPTION,
]


def test_every_event_kind_is_distinct_and_has_a_transition() -> None:
    assert len(set(KINDS)) == len(KINDS)
    for kind in KINDS:
        assert callable(getattr(RoomState, f"_on_{kind}", None)), kind


def test_move_by_names_only_the_servers_own_moves() -> None:
    assert events.move_by(None) is None
    assert events.move_by("0:abc") is None
    assert events.move_by(f"srv:{events.CLOCK_MOVE}:7") == events.CLOCK_MOVE
    assert events.move_by(f"srv:{events.STANDIN_MOVE}:7") == events.STANDIN_MOVE
    assert events.move_by("srv:bot:7") is None
