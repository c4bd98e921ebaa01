"""The turn clock times each turn from its own start (app/rooms/automation.py).

When both players move well inside one clock window, the timers of their turns
are stale: the one move the server then makes for the player to move comes at
that turn's own deadline, never at an earlier turn's.  A timer that outlived its
turn (not cancelled, and not checking the seq it was set for) would play for the
same seat at the first turn's deadline, half a window early.
"""

from __future__ import annotations

import asyncio

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async

CLOCK = 1.0
"""Seconds of the turn clock."""
THINK = 0.1
"""Seconds the first player takes: the timer of her turn is under way when she moves."""
GAP = CLOCK / 2
"""Seconds the second player takes: the deadline of the turn after is this much later
than the first turn's, so a move at the wrong one is told apart."""


async def clock_moves_at_its_own_turns_deadline(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            await _two_quick_moves_then_the_clock(service)
        finally:
            await service.stop()


async def _two_quick_moves_then_the_clock(service: RoomService) -> None:
    options = RoomOptions(turn_clock=CLOCK, grace=600)
    room = await service.execute(NewRoom(2, "Ann", RuleSet(single_pack=True), 0, options))
    rid = room.room_id
    await service.execute(JoinRoom(rid, "Bo"))
    for seat in (0, 1):  # both there: no grace period, no stand-in, only the clock
        await service.connect(rid, seat, Inbox(), None)
    rt = service.rooms[rid]
    deadlines = []
    for think in (THINK, GAP):  # each player moves, well inside the clock's window
        st = rt.state
        clock = st.clock()
        assert clock is not None and clock["seat"] == st.to_move, "a person's turn is timed"
        deadlines.append(clock["deadline"])
        await asyncio.sleep(think)
        seat = st.to_move
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))
    assert service.stats.timer_moves.get("clock", 0) == 0, "both moved in time"
    st = rt.state
    clock = st.clock()
    assert clock is not None
    seq, seat, deadline = st.seq, clock["seat"], clock["deadline"]
    assert deadline - deadlines[0] >= (THINK + GAP) * 1000, "this turn's deadline is later"
    timer = rt.turn_task
    assert timer is not None and rt.turn_seq == seq, "this turn's timer runs"

    await wait_until_async(  # and has moved, or found the move made
        lambda: rt.state.seq > seq and timer.done(),
        10 * CLOCK,
        0.01,
        "the clock to move for the player",
    )
    moves = await service.repo.events_after(rid, seq)
    first = moves[0]
    assert first.at >= deadline, (
        f"the clock moved {deadline - first.at} ms before this turn's deadline"
        f" ({deadline - deadlines[0]} ms after the first turn's)"
    )
    assert (first.kind, first.client_id) == ("play", f"srv:clock:{seq}"), "this turn's move"
    assert len(moves) == 1 and service.stats.timer_moves == {"clock": 1}, (
        "one server move follows",
        moves,
        service.stats.timer_moves,
    )
    assert rt.state.view(None)["log"][-1]["seat"] == seat, "for the seat whose turn ran out"


def test_the_clock_moves_once_at_the_deadline_of_the_turn_it_times(store_url: str) -> None:
    run_async(clock_moves_at_its_own_turns_deadline(store_url))
