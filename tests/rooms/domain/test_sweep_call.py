"""The room's ``hints`` option (issue 31): a room made with hints off never carries the
"tabbe på 9" call in its view; with them on (the default, and every room made before
the option) every connection's view carries the engine's call after every move."""

from __future__ import annotations

import random

import pytest

from app.engine.hints import sweep_call
from app.engine.rules import RuleSet
from app.rooms.domain.events import DealStarted, MatchStarted, Played, SeatTaken
from app.rooms.domain.options import RoomOptions
from app.rooms.domain.state import RoomState
from tests.rooms.domain.test_assist import add


def room(options: RoomOptions, seed: str) -> RoomState:
    st = RoomState("r" * 32, "CODE42", 2, RuleSet(), options)
    for seat in range(2):
        add(st, SeatTaken(seat, f"P{seat}"))
    add(st, MatchStarted(1, 0, 2))
    add(st, DealStarted(seed, 1, 1, 0, 2, 2))
    return st


@pytest.mark.parametrize("hints", [True, False])
def test_the_view_carries_the_call_unless_the_room_turned_hints_off(hints: bool) -> None:
    rng = random.Random(7)
    calls = 0
    for seed in ("seed-1", "seed-2"):
        st = room(RoomOptions(hints=hints), seed)
        assert st.view(None)["options"]["hints"] is hints
        while st.deal is not None and not st.deal.is_over:
            engine = sweep_call(st.deal)
            calls += engine is not None
            for seat in (0, 1, None):
                assert st.view(seat)["sweep_call"] == (engine if hints else None)
            creeps = [m for m in st.deal.legal() if m.kind == "creep"]
            m = rng.choice(creeps or list(st.deal.legal()))
            add(st, Played(st.deal.to_move, m.card, m.take, f"{st.seq}"))
    assert calls > 3  # the deals did make calls to carry (or to hold back)


def test_rooms_stored_before_the_option_have_hints_on() -> None:
    stored = RoomOptions().to_stored()
    del stored["hints"]
    assert RoomOptions.from_stored(stored).hints is True
