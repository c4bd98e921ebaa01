"""The deal of the day's service over a real room service and real rows (SQLite and
PostgreSQL), its clock moved by hand (``shift_days``, the DAILY_DAY_SHIFT setting):
a room of one deal in seat 0 against seeded strong bots on the day's derived pack; a
room that could not be made leaves the key free to try again; the points recorded
when the match ends; the seed kept back until the day is over, then matching its
commitment; dates and player counts without a deal are 404."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest

from app.broker import MemoryBroker
from app.core.errors import ServiceError
from app.core.outbox import MATCH_ENDED, StoredEvent
from app.daily import seeds
from app.daily.service import Daily
from app.db.daily import DailyRows
from app.engine.shuffle import commitment
from app.features import solo_rooms
from app.rooms.domain.commands import PlayCard
from app.rooms.domain.match_end import match_from_json
from app.rooms.domain.options import DealPreset
from app.rooms.domain.state import FINISHED
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.outbox.dispatching import dispatching
from tests.waiting import wait_until_async

ANN = "a" * 64


async def _play_out(service: RoomService, rid: str, seat: int) -> None:
    """The person's first legal move each turn until the match ends (the bots play)."""
    rt = service.rooms[rid]
    while rt.state.status != FINISHED:
        st = rt.state
        if st.to_move != seat:
            seq = st.seq
            await wait_until_async(lambda seq=seq: rt.state.seq != seq, 60, 0.01, "a bot move")
            continue
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))


def test_a_day_of_the_deal_of_the_day(database_url: str) -> None:
    async def run() -> None:
        async with AsyncExitStack() as stack:
            store = await stack.enter_async_context(open_store(database_url))
            settings = ServiceSettings(default_bot_delay=0, seeded_worlds=4)
            service = RoomService(store, MemoryBroker(), settings)
            stack.push_async_callback(service.stop)
            await service.start()
            daily = Daily(DailyRows(store), solo_rooms(service), players=(3,))

            async def result(event: StoredEvent) -> None:
                await daily.match_ended(match_from_json(event.body))

            dispatcher = await stack.enter_async_context(
                dispatching(service, store, daily=([MATCH_ENDED], result))
            )

            over = await daily.overview()
            day = over["date"]
            assert day == seeds.utc_day() and over["deals"][0]["seed"] is None
            with pytest.raises(ServiceError) as refused:  # a bot's name: no room is made
                await daily.play(3, ANN, "Bot 1", None)
            assert refused.value.code == "name_reserved"
            made = await daily.play(3, ANN, "Ann", None)  # the claim was let go
            with pytest.raises(ServiceError) as again:
                await daily.play(3, ANN, "Ann", None)
            assert again.value.code == "already_played"
            with pytest.raises(ServiceError) as none:
                await daily.play(5, "b" * 64, "Bo", None)
            assert none.value.code == "not_found"

            stored = await DailyRows(store).deal(day, 3)
            assert stored is not None
            seed = stored.seed
            rid = made.room_id
            st = service.rooms[rid].state
            assert made.seat == 0 and st.seats[0].name == "Ann"
            assert [s.bot for s in st.seats] == [False, True, True]
            assert st.options.bot_level == "strong" and st.options.takeback == "off"
            assert st.options.preset == DealPreset(
                seeds.pack_seed(seed), seeds.dealer(seed, 3), seeds.bot_seed(seed)
            )
            assert st.rules.match_deals == 1 and st.seed == seeds.pack_seed(seed)

            await service.connect(rid, 0, Inbox(), None)  # bots play while someone is there
            await _play_out(service, rid, 0)
            points = service.rooms[rid].state.match.cumulative[0]  # type: ignore[union-attr]

            async def recorded() -> bool:
                return bool((await daily.results(day, 3, None))["results"])

            await wait_until_async(recorded, 30, 0.05, "the result")
            seen = await daily.results(day, 3, "c" * 64)
            assert seen["seed"] is None and seen["commitment"] == commitment(seed)
            [row] = seen["results"]
            assert (row["name"], row["points"], row["rank"], row["percentile"]) == (
                "Ann",
                points,
                1,
                100.0,
            )
            assert row["room_id"] is None and seen["you"] is None  # not hers: no replay yet

            # a process that dies between the last play's commit and the hand-over: the
            # next read of the results records the points from the finished deal, once
            await dispatcher.stop()
            bo = await daily.play(3, "b" * 64, "Bo", None)
            await service.connect(bo.room_id, 0, Inbox(), None)
            await _play_out(service, bo.room_id, 0)
            bo_points = service.rooms[bo.room_id].state.match.cumulative[0]  # type: ignore[union-attr]

            # (the state is finished in memory a moment before its commit)
            async def both_in() -> bool:
                return len((await daily.results(day, 3, None))["results"]) == 2

            await wait_until_async(both_in, 30, 0.05, "Bo's result, from the stored deal")
            both = await daily.results(day, 3, "b" * 64)
            assert sorted(r["points"] for r in both["results"]) == sorted([points, bo_points])
            assert both["you"] is not None and both["you"]["name"] == "Bo"
            # his own replay, not Ann's: a play's room is its player's until the day is over
            assert {r["name"]: r["room_id"] for r in both["results"]} == {
                "Ann": None,
                "Bo": bo.room_id,
            }
            assert await DailyRows(store).settle(day, 3, 0) == 0  # recorded once

            daily.shift_days = 1  # the next day
            later = await daily.results(day, 3, None)
            assert later["seed"] == seed and {r["room_id"] for r in later["results"]} == {
                rid,
                bo.room_id,
            }
            assert (await daily.overview())["date"] > day
            assert (await daily.past_days())[0]["deals"][0]["seed"] == seed
            for bad_day, players in (("2099-01-01", 3), ("2026-02-30", 3), (day, 4)):
                with pytest.raises(ServiceError) as missing:
                    await daily.results(bad_day, players, None)
                assert missing.value.code == "not_found"

    run_async(run())
