"""The write path stores every finished match as one ``match_ended`` domain event with
its last play, and the outbox hands it on once (app/rooms/domain/match_end.py: what
the ratings read), on every store: the totals, the winners, and whoever a stand-in
bot was playing for at the end."""

from __future__ import annotations

from contextlib import AsyncExitStack

from app.broker import MemoryBroker
from app.core.outbox import MATCH_ENDED, StoredEvent
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.match_end import FinishedMatch, match_from_json
from app.rooms.domain.state import FINISHED, RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.outbox.dispatching import dispatching
from tests.waiting import wait_until_async

RULES = RuleSet(single_pack=True, match_deals=1)
"""Two players, one short deal."""


async def _play_out(service: RoomService, rid: str, seats: list[int]) -> None:
    """Play the first legal move for the person seats in ``seats`` until the match ends
    (bots and stand-ins play by themselves)."""
    rt = service.rooms[rid]
    while rt.state.status != FINISHED:
        st = rt.state
        seat = st.to_move
        if seat is None or seat not in seats or st.bot_controls(seat):
            seq = st.seq
            await wait_until_async(lambda seq=seq: rt.state.seq != seq, 30, 0.01, "a bot move")
            continue
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))


def _run(url: str, rated: bool, bo_away: bool) -> list[FinishedMatch]:
    heard: list[FinishedMatch] = []

    async def hook(event: StoredEvent) -> None:
        heard.append(match_from_json(event.body))

    async def run() -> None:
        async with AsyncExitStack() as stack:
            store = await stack.enter_async_context(open_store(url))
            service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
            stack.push_async_callback(service.stop)
            dispatcher = await stack.enter_async_context(
                dispatching(service, store, ratings=([MATCH_ENDED], hook))
            )
            grace = 0.0 if bo_away else 600.0
            options = RoomOptions(bot_delay=0, grace=grace, rated=rated)
            room = await service.execute(NewRoom(2, "Ann", RULES, 0, options))
            rid = room.room_id
            await service.execute(JoinRoom(rid, "Bo"))
            present = [0] if bo_away else [0, 1]
            for seat in present:
                await service.connect(rid, seat, Inbox(), None)
            await _play_out(service, rid, present)
            await wait_until_async(lambda: heard, 10, 0.01, "the match_ended event")
            # three more looks find nothing more to hand on
            rounds = dispatcher.stats.rounds
            await wait_until_async(
                lambda: dispatcher.stats.rounds >= rounds + 3, 10, 0.01, "three looks"
            )

    run_async(run())
    return heard


def test_a_finished_match_is_told_once_with_its_totals(store_url: str) -> None:
    heard = _run(store_url, rated=True, bo_away=False)
    assert len(heard) == 1
    done = heard[0]
    assert done.rated and done.match_no == 1 and done.players == 2
    assert [s.name for s in done.seats] == ["Ann", "Bo"]
    assert not any(s.left for s in done.seats)
    totals = [s.total for s in done.seats]
    assert sum(totals) == 21, "V2: a single pack's deal scores add up to 21 (R6.3)"
    assert list(done.winners) == [i for i, t in enumerate(totals) if t == min(totals)]


def test_a_seat_a_stand_in_played_to_the_end_has_left(store_url: str) -> None:
    heard = _run(store_url, rated=False, bo_away=True)
    assert len(heard) == 1
    assert not heard[0].rated
    assert [s.left for s in heard[0].seats] == [False, True]
