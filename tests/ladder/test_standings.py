"""The standings (app/ladder/standings.py) from published packs, against figures
worked out by hand; and a pack played by the engine (app/ladder/play.py) replays
move for move from its seed."""

from __future__ import annotations

import math
import statistics

import pytest

from app.engine import scenario
from app.engine.rules import RuleSet
from app.ladder.entrants import Entrant
from app.ladder.play import play_pack
from app.ladder.published import PackJson, ResultJson
from app.ladder.records import deal_record
from app.ladder.schedule import PackPlan
from app.ladder.standings import standings


def _pack(pack_id: int, scores: list[list[int]], seats: list[list[str]]) -> PackJson:
    results: list[ResultJson] = [
        {"deal": d, "seat": s, "entrant": seats[d][s], "score": score}
        for d, row in enumerate(scores)
        for s, score in enumerate(row)
    ]
    return {
        "id": pack_id,
        "seed": "x",
        "players": 2,
        "rules": RuleSet().to_dict(),
        "made_ms": 1,
        "finished_ms": 2,
        "entrants": [{"entrant": "a", "kind": "level"}, {"entrant": "b", "kind": "level"}],
        "seatings": seats,
        "results": results,
    }


SEATS = [["a", "b"], ["b", "a"]]


def test_one_pack_gives_means_and_no_interval() -> None:
    # deal 0: a 10, b 20 (table mean 15); deal 1: b 30, a 0 (mean 15)
    got = standings([_pack(1, [[10, 20], [30, 0]], SEATS)])
    assert [s["entrant"] for s in got] == ["a", "b"]
    a, b = got
    assert a["mean"] == 5 and a["relative_mean"] == -10 and a["deals"] == 2
    assert b["mean"] == 25 and b["relative_mean"] == 10 and b["packs"] == 1
    assert a["low"] is None and a["high"] is None


def test_intervals_come_from_the_spread_of_per_pack_means() -> None:
    packs = [
        _pack(1, [[10, 20], [30, 0]], SEATS),  # a: -10
        _pack(2, [[10, 10], [10, 10]], SEATS),  # a: 0
        _pack(3, [[0, 8], [4, 4]], SEATS),  # a: mean 2, table means 4, 4: -2
    ]
    a = next(s for s in standings(packs) if s["entrant"] == "a")
    rel = [-10.0, 0.0, -2.0]
    half = 4.303 * statistics.stdev(rel) / math.sqrt(3)
    assert a["relative_mean"] == pytest.approx(statistics.fmean(rel), abs=1e-4)
    assert a["low"] == pytest.approx(statistics.fmean(rel) - half, abs=1e-4)
    assert a["high"] == pytest.approx(statistics.fmean(rel) + half, abs=1e-4)
    assert a["packs"] == 3 and a["deals"] == 6


def test_a_played_pack_replays_from_its_seed_to_the_same_scores() -> None:
    plan = PackPlan(
        "0123456789abcdef0123456789abcdef",
        2,
        RuleSet(),
        (Entrant.level("random"), Entrant.level("greedy")),
    )
    deals = play_pack(plan, worlds=4, pause=lambda: None)
    assert [d.index for d in deals] == [0, 1]
    assert play_pack(plan, worlds=4, pause=lambda: None) == deals, "a pack replays move for move"
    for d in deals:
        record = deal_record(7, plan, d.index, d.moves, d.scores, d.totals)
        out = scenario.run(dict(record))
        assert out["error"] is None and out["deal_over"]
        assert [s["total"] for s in out["scores"]] == d.totals
        assert record["seats"] == plan.seatings()[d.index]
    # the same hands in both deals: the pack is dealt the same way every time
    first = deal_record(7, plan, 0, [], [], [])
    second = deal_record(7, plan, 1, [], [], [])
    assert first["hands"] == second["hands"] and first["stock"] == second["stock"]
