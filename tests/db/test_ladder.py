"""The ladder's rows on real SQLite and PostgreSQL (app/db/ladder.py): a pack is stored
before it is played and published only once finished, finished once (by the holder of
its lease), a schedule slot makes one pack however many processes race for it, and a
pack whose player stopped is taken over and stored once."""

from __future__ import annotations

import asyncio

from alembic import command

from app.core.clock import now_ms
from app.db.ladder import LadderRows
from app.db.revisions import alembic_config, apply
from app.engine.rules import RuleSet
from app.ladder.config import ladder_config
from app.ladder.entrants import Entrant
from app.ladder.play import play_pack
from app.ladder.runner import LadderRunner, RunnerSettings
from app.ladder.schedule import PackPlan
from app.ladder.service import Ladder
from tests.conftest import open_store, run_async
from tests.server.process import sql

PLAN = PackPlan("00" * 16, 2, RuleSet(), (Entrant.level("random"), Entrant.level("greedy")))
CONFIG = ladder_config(2, None, "random,greedy")
LATER = now_ms() + 3_600_000
"""A lease that does not run out while a test runs."""


def _runner(rows: LadderRows, owner: str, clock_ms: list[int] | None = None) -> LadderRunner:
    clock = (lambda: clock_ms[0]) if clock_ms is not None else None
    settings = RunnerSettings(worlds=2, lease_s=60.0)
    if clock is None:
        return LadderRunner(rows, CONFIG, asyncio.to_thread, owner, settings)
    return LadderRunner(rows, CONFIG, asyncio.to_thread, owner, settings, clock)


def test_a_pack_is_published_only_once_finished_and_then_whole(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = LadderRows(repo)
            pack_id = await rows.claim(PLAN, "p1", 1000, 61000, None)
            assert pack_id is not None
            assert await rows.stamp() == (0, 0)
            assert await rows.packs(0, 10) == [] and await rows.pack(pack_id) is None
            assert await rows.finished(2) == []
            assert await rows.tables_played(2) == {("random", "greedy"): 1}
            deals = await asyncio.to_thread(play_pack, PLAN, 2, lambda: None)
            assert not await rows.finish(pack_id, "someone else", deals, 2000)
            assert await rows.finish(pack_id, "p1", deals, 2000)
            assert not await rows.finish(pack_id, "p1", deals, 3000), "finished once"
            assert await rows.stamp() == (1, 2000)
            (listed,) = await rows.packs(0, 10)
            assert listed["seed"] == PLAN.seed and listed["seatings"] == PLAN.seatings()
            assert listed["finished_ms"] == 2000 and listed["made_ms"] == 1000
            assert [
                (r["deal"], r["seat"], r["entrant"], r["score"]) for r in listed["results"]
            ] == [
                (d.index, s, PLAN.seatings()[d.index][s], d.totals[s])
                for d in deals
                for s in range(2)
            ]
            found = await rows.pack(pack_id)
            assert found is not None
            assert [(d.moves, d.scores) for d in found[1]] == [(d.moves, d.scores) for d in deals]
            assert await rows.packs(pack_id, 10) == []

    run_async(check())


def test_a_slot_makes_one_pack_however_many_processes_race(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = LadderRows(one), LadderRows(two)
            got = await asyncio.gather(
                *[(a if i % 2 else b).claim(PLAN, f"p{i}", 1, LATER, 77) for i in range(6)]
            )
            assert len([g for g in got if g is not None]) == 1, got
            runners = [_runner(a, "r1"), _runner(b, "r2")]
            stored = await asyncio.gather(*(r.play_one(slot=78) for r in runners))
            assert len([s for s in stored if s is not None]) == 1, stored
            assert (await a.stamp())[0] == 1

    run_async(check())


def test_a_pack_whose_player_stopped_is_taken_over_and_stored_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = LadderRows(repo)
            pack_id = await rows.claim(PLAN, "gone", 1000, 5000, None)
            assert pack_id is not None
            assert await rows.reclaim("other", 4000, 9000) is None, "not before the lease ends"
            clock = [6000]
            runner = _runner(rows, "taker", clock)
            assert await runner.play_one() == pack_id, "the abandoned pack first"
            assert not await rows.renew(pack_id, "gone", 99999)
            assert not await rows.finish(pack_id, "gone", [], 7000)
            (pack,) = await rows.packs(0, 10)
            assert pack["id"] == pack_id and pack["seed"] == PLAN.seed
            assert len(pack["results"]) == 4

    run_async(check())


def test_the_standings_are_computed_again_only_when_a_pack_finished(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = LadderRows(repo)
            ladder = Ladder(rows, CONFIG, _runner(rows, "r"))
            empty = await ladder.standings()
            assert empty["packs"] == 0 and empty["standings"] == []
            assert empty["updated_ms"] is None
            assert ladder.runner is not None
            assert await ladder.runner.run_packs(2) == 2
            first = await ladder.standings()
            again = await ladder.standings()
            assert first is again and ladder.computed == 2
            assert first["packs"] == 2
            assert {s["entrant"] for s in first["standings"]} == {"random", "greedy"}
            assert all(s["packs"] == 2 and s["deals"] == 4 for s in first["standings"])
            # two entrants at a table of two: their relative means are opposite
            a, b = first["standings"]
            assert a["relative_mean"] == -b["relative_mean"]

    run_async(check())


def test_migration_0023_goes_up_and_down_and_keeps_the_other_tables(database_url: str) -> None:
    apply(database_url, "0022")
    sql(
        database_url,
        "INSERT INTO accounts (id, username, username_key, created_ms)"
        " VALUES ('a1', 'Ann', 'ann', 1)",
    )
    apply(database_url, "0023")
    sql(
        database_url,
        "INSERT INTO ladder_packs (seed, players, rules, entrants, seatings, made_ms)"
        " VALUES ('s', 2, '{}', '[]', '[]', 1)",
    )
    command.downgrade(alembic_config(database_url), "0022")
    assert sql(database_url, "SELECT id FROM accounts") == [("a1",)]
    apply(database_url, "0023")
    assert sql(database_url, "SELECT count(*) FROM ladder_packs") == [(0,)]
