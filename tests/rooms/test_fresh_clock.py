"""A fresh clock on a deal a player had not seen (issue 47), with real timers.

Two people play deal 1 of a 2-deal match out; the room pauses between deals.  A seat
that had not pressed Continue when deal 2 started has its first turn timed from when
its page showed the deal (``deal_shown``), not from the deal: its clock is whole when
it first sees the deal, however late.  The wait is bounded by the room's grace, so a
page that never says it shows the deal still gets a clock, and a player who left is
still replaced by a stand-in bot after the grace period.  The deadlines come from
stored events only: the room read back from the store has the same clock.  Refused or
meaningless acknowledgements (a spectator's, a second one, an old or unknown deal,
a seat that pressed Continue) change nothing.
"""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from app import wire
from app.broker import MemoryBroker
from app.core.errors import ErrorCode, ServiceError
from app.engine.rules import RuleSet
from app.engine.turns import packet_leader
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard, PressContinue, ShowDeal
from app.rooms.domain.events import AUTOPLAY, DEAL, PLAY, SHOWN, RoomEvent, move_by
from app.rooms.domain.state import RoomOptions
from app.rooms.runtime import RoomRuntime
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async

CLOCK = 1.0
"""Seconds of the turn clock."""
PAUSE = 0.6
"""Seconds between deals."""
LATE = 2.5 * CLOCK
"""Seconds after the deal that the late page shows it: a clock counted from the deal
would have run out long before."""
GRACE = 1.5
"""Seconds of grace in the rooms where nobody shows the deal, or a player left."""
LONG_GRACE = 600.0


async def _room(service: RoomService, grace: float) -> tuple[str, RoomRuntime, list[Inbox]]:
    """Two people, both connected, in deal 1 of a 2-deal match with a clock and a pause."""
    rules = RuleSet.from_dict({"single_pack": True, "match_deals": 2})
    options = RoomOptions(turn_clock=CLOCK, deal_pause=PAUSE, grace=grace)
    room = await service.execute(NewRoom(2, "Ann", rules, 0, options))
    rid = room.room_id
    await service.execute(JoinRoom(rid, "Bo"))
    inboxes = [Inbox(), Inbox()]
    for seat in (0, 1):
        await service.connect(rid, seat, inboxes[seat], None)
    return rid, service.rooms[rid], inboxes


async def _play_out_deal(service: RoomService, rid: str, rt: RoomRuntime) -> int:
    """Both people play deal 1 to its end at once; returns the seq of its last play."""
    while (st := rt.state).deal is not None and not st.deal.is_over:
        seat = st.to_move
        assert seat is not None
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))
    assert rt.state.between_deals, "the room pauses between deals"
    return rt.state.seq


async def _stored(
    service: RoomService, rid: str, after: int, found: str, timeout: float
) -> list[RoomEvent]:
    """The stored events after ``after`` once one of kind ``found`` is among them."""

    async def events() -> list[RoomEvent]:
        got = await service.repo.events_after(rid, after)
        return got if any(e.kind == found for e in got) else []

    return await wait_until_async(events, timeout, 0.02, f"a {found} event")


def _first_play(events: list[RoomEvent], seat: int) -> RoomEvent:
    return next(e for e in events if e.kind == PLAY and e.body.seat == seat)  # type: ignore[union-attr]


async def whole_clock_when_shown_late(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            rid, rt, _ = await _room(service, LONG_GRACE)
            ended = await _play_out_deal(service, rid, rt)
            (deal,) = [e for e in await _stored(service, rid, ended, DEAL, 20) if e.kind == DEAL]
            st = rt.state
            late, other = st.to_move, 1 - (st.to_move or 0)
            assert late is not None
            # the other page shows the deal at once; the late one's summary is still open
            await service.execute(ShowDeal(rid, other, st.match_no, st.deal_no))
            clock = st.clock()
            assert clock is not None and clock["seat"] == late
            assert clock["deadline"] >= deal.at + int(LONG_GRACE * 1000), (
                "no clock runs on a deal the seat has not seen (but a bounded one)"
            )
            reloaded = await store.load_state(rid)
            assert reloaded is not None and reloaded.clock() == clock, "stored, not in memory"
            await asyncio.sleep(LATE)  # the player looks at the table only now
            assert rt.state.deal_no == 2 and not rt.state.deal.moves, "nobody played for them"  # type: ignore[union-attr]
            await service.execute(ShowDeal(rid, late, st.match_no, st.deal_no))
            events = await _stored(service, rid, deal.seq, PLAY, 20 * CLOCK)
            shown = [e for e in events if e.kind == SHOWN and e.body.seat == late]  # type: ignore[union-attr]
            assert len(shown) == 1
            assert shown[0].at >= deal.at + int(LATE * 1000)
            first = _first_play(events, late)
            assert first.client_id == f"srv:clock:{shown[0].seq}", "the clock, once it ran out"
            assert first.at >= shown[0].at + int(CLOCK * 1000), (
                f"the late seat's first turn had {first.at - shown[0].at} ms of its"
                f" {int(CLOCK * 1000)} ms clock from when its page showed the deal"
            )
            await wait_until_async(lambda: rt.state.seq >= first.seq, 5, 0.02, "the play applied")
            reloaded = await store.load_state(rid)
            assert reloaded is not None and late not in reloaded.first_turns.floor
            assert reloaded.clock() == rt.state.clock(), "the next turn's clock, read back"
        finally:
            await service.stop()


async def hostile_acknowledgements_change_nothing(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            rid, rt, _ = await _room(service, LONG_GRACE)
            await service.execute(ShowDeal(rid, 0, 1, 1))  # deal 1 followed no pause: nothing waits
            assert rt.state.first_turns.floor == {}
            ended = await _play_out_deal(service, rid, rt)
            await service.execute(ShowDeal(rid, 0, 1, 1))  # the deal that ended
            await service.execute(ShowDeal(rid, 0, 1, 2))  # one not dealt yet
            assert rt.state.seq == ended, "nothing written between deals"
            await service.execute(PressContinue(rid, 1))  # Bo pressed Continue: not waited for
            await _stored(service, rid, ended, DEAL, 20)
            st = rt.state
            seq = st.seq
            assert st.first_turns.unseen == {0}
            with pytest.raises(ServiceError) as refused:
                await service.execute(ShowDeal(rid, None, 1, 2))
            assert refused.value.code == ErrorCode.UNAUTHORIZED
            for match_no, deal_no in ((1, 1), (1, 3), (2, 2)):  # old, unknown, other match
                await service.execute(ShowDeal(rid, 0, match_no, deal_no))
            await service.execute(ShowDeal(rid, 1, 1, 2))  # Bo had pressed Continue
            assert st.seq == seq and st.first_turns.unseen == {0}, "nothing written"
            await service.execute(ShowDeal(rid, 0, 1, 2))
            assert st.seq == seq + 1 and st.first_turns.unseen == set()
            clock = st.clock()
            await service.execute(ShowDeal(rid, 0, 1, 2))  # twice
            assert st.seq == seq + 1 and st.clock() == clock, "the second one changed nothing"
        finally:
            await service.stop()


async def bounded_for_a_page_that_never_says(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            rid, rt, _ = await _room(service, GRACE)
            ended = await _play_out_deal(service, rid, rt)
            events = await _stored(service, rid, ended, PLAY, 20 * (GRACE + CLOCK))
            (deal,) = [e for e in events if e.kind == DEAL]
            first = next(e for e in events if e.kind == PLAY)
            assert first.client_id == f"srv:clock:{deal.seq}"
            bound = deal.at + int((GRACE + CLOCK) * 1000)
            assert first.at >= bound, "the clock waited for the page, up to the grace"
            assert first.at < bound + 10_000, "and no longer: the game goes on"
        finally:
            await service.stop()


async def an_absent_player_is_replaced_after_the_grace(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            rid, rt, inboxes = await _room(service, GRACE)
            ended = await _play_out_deal(service, rid, rt)
            st = rt.state
            assert st.match is not None
            gone = packet_leader(st.players, st.match.dealer_for(st.deal_no + 1))
            await service.disconnect(rid, gone, inboxes[gone])  # leads deal 2, and left
            await service.execute(PressContinue(rid, 1 - gone))
            events = await _stored(service, rid, ended, PLAY, 20 * (GRACE + CLOCK))
            autoplay = [e for e in events if e.kind == AUTOPLAY]
            assert [(e.body.seat, e.body.on) for e in autoplay] == [(gone, True)]  # type: ignore[union-attr]
            first = _first_play(events, gone)
            assert move_by(first.client_id) == "standin", "a stand-in bot, after the grace"
        finally:
            await service.stop()


def test_a_seat_that_saw_the_deal_late_gets_its_whole_clock(store_url: str) -> None:
    run_async(whole_clock_when_shown_late(store_url))


def test_acknowledging_twice_late_early_or_as_a_spectator_changes_nothing(store_url: str) -> None:
    run_async(hostile_acknowledgements_change_nothing(store_url))


def test_a_page_that_never_shows_the_deal_waits_no_longer_than_the_grace(store_url: str) -> None:
    run_async(bounded_for_a_page_that_never_says(store_url))


def test_an_absent_player_is_still_replaced_by_a_stand_in(store_url: str) -> None:
    run_async(an_absent_player_is_replaced_after_the_grace(store_url))


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "deal_shown", "match_no": 1, "deal_no": 2, "seat": 1}',  # for another seat
        '{"type": "deal_shown", "match_no": 1, "deal_no": 0}',
        '{"type": "deal_shown", "match_no": 1, "deal_no": "2"}',
        '{"type": "deal_shown", "deal_no": 2}',
    ],
)
def test_a_malformed_deal_shown_is_a_bad_message(text: str) -> None:
    with pytest.raises(ValidationError):
        wire.parse_client(text)
    assert isinstance(
        wire.parse_client('{"type": "deal_shown", "match_no": 1, "deal_no": 2}'),
        wire.DealShownMessage,
    )
