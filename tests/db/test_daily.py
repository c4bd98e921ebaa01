"""The deal of the day's rows on real SQLite and PostgreSQL (app/db/daily.py): a day's
seed is fixed once however many stores (processes' connections) race to fix it, a key
claims a deal once, and a play's points are written once; the options a room keeps
hold its preset deal, which its view never shows."""

from __future__ import annotations

import asyncio
from multiprocessing import get_context

from app.db.daily import DailyRows
from app.engine.rules import RuleSet
from app.rooms.domain.options import DealPreset
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import open_store, run_async

DAY = "2026-12-04"
RACERS = 8


def test_two_stores_racing_fix_one_seed_per_day_and_player_count(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = DailyRows(one), DailyRows(two)
            for players in (3, 4):
                fixes = [
                    (a if i % 2 else b).fix_deal(
                        DAY, players, f"{players}-{i}", f"c{players}-{i}", i
                    )
                    for i in range(RACERS)
                ]
                got = await asyncio.gather(*fixes)
                assert len({(d.seed, d.commitment) for d in got}) == 1, got
                assert got[0].players == players and got[0].played == 0
            three, four = await a.deal(DAY, 3), await b.deal(DAY, 4)
            assert three is not None and four is not None and three.seed != four.seed
            assert await a.deal("2026-12-05", 3) is None

    run_async(check())


def _fix_in_a_process(url: str, seed: str, start: float) -> str:
    """One process fixing the day's deal at (about) the same moment as another."""
    import time

    async def fix() -> str:
        async with open_store(url) as repo:
            time.sleep(max(0.0, start - time.time()))
            return (await DailyRows(repo).fix_deal(DAY, 3, seed, seed, 1)).seed

    return asyncio.run(fix())


def test_two_processes_racing_fix_the_same_seed(database_url: str) -> None:
    import time

    run_async(_migrated(database_url))
    start = time.time() + 2.0
    with get_context("spawn").Pool(2) as pool:
        seeds = pool.starmap(
            _fix_in_a_process,
            [(database_url, "from-one", start), (database_url, "from-two", start)],
        )
    assert seeds[0] == seeds[1] and seeds[0] in ("from-one", "from-two"), seeds


async def _migrated(url: str) -> None:
    async with open_store(url):
        pass


def test_a_key_claims_a_deal_once_and_its_points_are_written_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = DailyRows(repo)
            await rows.fix_deal(DAY, 3, "s", "c", 1)
            assert await rows.claim(DAY, 3, "h" * 64, "Ann", 1)
            assert not await rows.claim(DAY, 3, "h" * 64, "Ann again", 2)
            assert await rows.claim(DAY, 4, "h" * 64, "Ann", 3)  # another deal
            await rows.unclaim(DAY, 4, "h" * 64)
            assert await rows.claim(DAY, 4, "h" * 64, "Ann", 4)  # a room never made
            await rows.seat_play(DAY, 3, "h" * 64, "r" * 32, 0)
            assert await rows.results(DAY, 3) == []
            assert await rows.finish("r" * 32, [11, 20, 11], 5)
            assert not await rows.finish("r" * 32, [99, 0, 0], 6)
            assert not await rows.finish("x" * 32, [1, 2, 3], 7)  # not a daily room
            [done] = await rows.results(DAY, 3)
            assert (done.name, done.points, done.room_id, done.seat) == ("Ann", 11, "r" * 32, 0)
            deal = await rows.deal(DAY, 3)
            assert deal is not None and deal.played == 1

    run_async(check())


def test_a_rooms_preset_is_stored_but_never_in_its_view(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            preset = DealPreset(seed="a" * 32, dealer=2, bot_seed="b" * 64)
            options = RoomOptions(bot_level="strong", preset=preset)
            await repo.create_room(RoomState("q" * 32, "QQQQQQ", 3, RuleSet(), options))
            loaded = await repo.load_state("q" * 32)
            assert loaded is not None and loaded.options == options
            assert "preset" not in loaded.options.to_dict()
            assert loaded.options.challenge
            assert "b" * 64 not in str(loaded.public_view())

    run_async(check())
