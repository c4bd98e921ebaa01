"""No clock runs on a deal before it exists: each seat's first turn of a new deal is
timed in full from the ``deal`` event (issue 33), with real timers and short clocks.

The room pauses between deals (``deal_pause``); nobody presses Continue, so the pause
runs out and the room deals by itself (app/rooms/pacing.py).  Both pages show the new
deal at once (``deal_shown``, as the client does: issue 47, tests/rooms/test_fresh_clock.py).
Neither player then moves: the clock plays the first turn of each seat, and each of
those moves must come no earlier than a whole clock after the deal (the first seat's
turn) or after the move before it (the second seat's), never at a deadline counted
from the end of the last deal or from the pause.  With a time bank instead of a turn
clock, the pause costs nobody's bank and the first turn's deadline is the whole bank
left, from when the page showed the deal (never before the deal).
"""

from __future__ import annotations

import asyncio

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard, ShowDeal
from app.rooms.domain.events import DEAL, PLAY, SHOWN, RoomEvent, move_by
from app.rooms.domain.state import RoomOptions
from app.rooms.runtime import RoomRuntime
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async

CLOCK = 1.0
"""Seconds of the turn clock (and of the time bank)."""
PAUSE = 0.6
"""Seconds between deals: shorter than the clock, so a deadline counted from the end of
the last deal would come before one counted from the deal."""


async def _room(service: RoomService, options: RoomOptions) -> tuple[str, RoomRuntime]:
    """Two people, both connected (no grace, no stand-in), in deal 1 of a 2-deal match."""
    rules = RuleSet.from_dict({"single_pack": True, "match_deals": 2})
    room = await service.execute(NewRoom(2, "Ann", rules, 0, options))
    rid = room.room_id
    await service.execute(JoinRoom(rid, "Bo"))
    for seat in (0, 1):
        await service.connect(rid, seat, Inbox(), None)
    return rid, service.rooms[rid]


async def _play_out_deal(service: RoomService, rid: str, rt: RoomRuntime) -> int:
    """Both people play deal 1 to its end at once; returns the seq of its last play."""
    while (st := rt.state).deal is not None and not st.deal.is_over:
        seat = st.to_move
        assert seat is not None
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))
    assert rt.state.between_deals, "the room pauses between deals"
    return rt.state.seq


async def _events_until(
    service: RoomService, rid: str, rt: RoomRuntime, after: int, count: int
) -> list[RoomEvent]:
    """The first ``count`` events after ``after`` but the pages' ``shown``, once the
    timers wrote them: the store is read again until it holds them (the room's state
    is applied a moment before its commit, so its ``seq`` alone does not say they are
    stored)."""
    await wait_until_async(
        lambda: rt.state.seq >= after + count, 20 * CLOCK, 0.02, f"{count} events"
    )
    for _ in range(500):
        events = [e for e in await service.repo.events_after(rid, after) if e.kind != SHOWN]
        if len(events) >= count:
            return events[:count]
        await asyncio.sleep(0.02)
    raise AssertionError(f"{count} events were not stored after seq {after}")


async def _show(service: RoomService, rid: str, rt: RoomRuntime) -> None:
    """Both pages show the new deal, as the client does once it is in view."""
    st = rt.state
    for seat in (0, 1):
        await service.execute(ShowDeal(rid, seat, st.match_no, st.deal_no))


async def clock_counts_from_the_deal(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            options = RoomOptions(turn_clock=CLOCK, deal_pause=PAUSE, grace=600)
            rid, rt = await _room(service, options)
            ended = await _play_out_deal(service, rid, rt)
            assert rt.state.clock() is None, "no clock while the room waits"
            (deal,) = await _events_until(service, rid, rt, ended, 1)
            await _show(service, rid, rt)
            deal, first, second = await _events_until(service, rid, rt, ended, 3)
            assert deal.kind == DEAL and rt.state.deal_no == 2
            assert deal.at >= rt.state.deal_ended_at + PAUSE * 1000, "nobody pressed Continue"
            clock_ms = int(CLOCK * 1000)
            assert (first.kind, move_by(first.client_id)) == (PLAY, "clock")
            assert first.at >= deal.at + clock_ms, (
                f"the first turn of deal 2 was played {deal.at + clock_ms - first.at} ms"
                " before a whole clock from the deal"
            )
            assert (second.kind, second.client_id) == (PLAY, f"srv:clock:{first.seq}")
            assert second.at >= first.at + clock_ms, "the second seat's first turn in full"
            seats = {first.body.seat, second.body.seat}  # type: ignore[union-attr]
            assert seats == {0, 1}, "each seat's first turn of the deal"
            by = [m.get("by") for m in rt.state.view(None)["log"]]
            assert by[:2] == ["clock", "clock"], "marked as the clock's in the log"
            assert service.stats.timer_moves.get("clock", 0) >= 2
        finally:
            await service.stop()


async def bank_waits_out_the_pause(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            # A bank of several clocks: playing deal 1 out through the service spends some of
            # it on a loaded machine, and the test needs some left at deal 2.
            options = RoomOptions(time_bank=3 * CLOCK, deal_pause=PAUSE, grace=600)
            rid, rt = await _room(service, options)
            ended = await _play_out_deal(service, rid, rt)
            banks = rt.state.banks
            assert banks is not None
            left = list(banks)
            await asyncio.sleep(PAUSE / 2)
            assert rt.state.clock() is None and rt.state.banks == left, "the pause is free"
            (deal,) = await _events_until(service, rid, rt, ended, 1)
            assert deal.kind == DEAL
            await _show(service, rid, rt)
            st = rt.state
            clock = st.clock()
            assert clock is not None and st.banks == left, "no bank paid for the pause"
            events = await service.repo.events_after(rid, deal.seq)
            shown = next(e for e in events if e.kind == SHOWN and e.body.seat == clock["seat"])  # type: ignore[union-attr]
            assert shown.at >= deal.at
            assert clock["deadline"] == shown.at + left[clock["seat"]], (
                "the first turn has the whole bank left, from when the page showed the deal"
            )
            (first,) = await _events_until(service, rid, rt, deal.seq, 1)
            assert move_by(first.client_id) == "clock"
            assert first.at >= clock["deadline"], "played when the bank ran out, not before"
        finally:
            await service.stop()


def test_each_seats_first_turn_of_a_new_deal_gets_a_whole_clock(store_url: str) -> None:
    run_async(clock_counts_from_the_deal(store_url))


def test_a_time_bank_is_not_spent_between_deals(store_url: str) -> None:
    run_async(bank_waits_out_the_pause(store_url))
