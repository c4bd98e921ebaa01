"""Ratings on the anchors' scale (app/ladder/anchored.py), from packs made up so that
every entrant's true value is known: each seat of a pack's deal holds the same cards
in every deal (its ``luck``, which the duplicate rotation cancels), and an entrant's
score at a seat is that luck plus its value.  The fit must give the values back
exactly, the anchors' averaging 0, whatever tables the bots met."""

from __future__ import annotations

import pytest

from app.engine.rules import RuleSet
from app.ladder.anchored import anchor_values, ratings
from app.ladder.published import PackJson, ResultJson
from app.ladder.standings import standings

LUCK = [7, -2, 4, 1]
"""What the cards at each seat are worth, the same in every deal of a pack."""


def made_pack(pack_id: int, table: list[str], values: dict[str, int]) -> PackJson:
    """A pack of ``table`` (entrants by position; ``x…`` names an outside bot), every
    score its seat's luck plus its entrant's value."""
    n = len(table)
    seatings = [[table[(s - d) % n] for s in range(n)] for d in range(n)]
    results: list[ResultJson] = [
        {"deal": d, "seat": s, "entrant": e, "score": LUCK[s] + values[e]}
        for d, seats in enumerate(seatings)
        for s, e in enumerate(seats)
    ]
    return {
        "id": pack_id,
        "seed": f"s{pack_id}",
        "players": n,
        "rules": RuleSet().to_dict(),
        "made_ms": 1,
        "finished_ms": 2,
        "entrants": [
            {"entrant": e, "kind": "outside" if e.startswith("x") else "level"} for e in table
        ],
        "seatings": seatings,
        "results": results,
    }


VALUES = {"random": 6, "greedy": 0, "strong": -6, "x1": -9, "x2": 2}


def test_two_bots_that_met_different_tables_are_put_on_one_scale() -> None:
    packs = [
        made_pack(1, ["random", "greedy"], VALUES),
        made_pack(2, ["random", "strong"], VALUES),
        made_pack(3, ["greedy", "strong"], VALUES),
        made_pack(4, ["x1", "random"], VALUES),  # x1 only ever met random
        made_pack(5, ["x1", "random"], VALUES),
        made_pack(6, ["x2", "strong"], VALUES),  # x2 only ever met strong
        made_pack(7, ["x2", "strong"], VALUES),
    ]
    rated = ratings(packs)
    for entrant, value in VALUES.items():
        assert rated[entrant].value == pytest.approx(value, abs=1e-9), entrant
    # against their tables x2 looks better (-2 vs strong) than x1 (-7.5 vs random)
    # does not: the relative means cannot compare them, the ratings do
    by = {s["entrant"]: s for s in standings(packs)}
    assert by["x1"]["relative_mean"] == pytest.approx(-7.5)
    assert by["x2"]["relative_mean"] == pytest.approx(4.0)
    assert by["x1"]["rating"] == pytest.approx(-9) and by["x2"]["rating"] == pytest.approx(2)
    assert (by["x1"]["rating_low"], by["x1"]["rating_high"]) == (
        pytest.approx(-9),
        pytest.approx(-9),
    ), "two packs of one estimate: an interval of no width"
    assert by["random"]["rating_low"] is None, "an anchor's value is fixed: no interval"


def test_tables_larger_than_the_entrants_count_each_seat() -> None:
    values = {"a": 3, "b": -3, "x": -6}
    packs = [
        made_pack(1, ["a", "b", "a"], values),  # a holds two seats
        made_pack(2, ["b", "a", "b"], values),
        made_pack(3, ["x", "a", "b"], values),
        made_pack(4, ["x", "a", "x"], values),  # the bot in two seats
    ]
    rated = ratings(packs)
    assert {e: round(r.value, 9) for e, r in rated.items()} == values


def test_anchors_that_never_met_fix_no_scale() -> None:
    values = {"a": 1, "b": -1, "c": 2, "d": -2, "x": 0}
    apart = [made_pack(1, ["a", "b"], values), made_pack(2, ["c", "d"], values)]
    assert anchor_values(apart) is None
    assert ratings([*apart, made_pack(3, ["x", "a"], values)]) == {}
    joined = [*apart, made_pack(3, ["b", "c"], values)]
    assert anchor_values(joined) == pytest.approx({"a": 1, "b": -1, "c": 2, "d": -2})


def test_no_anchor_only_pack_no_ratings_and_a_bot_beside_an_unrated_level_none() -> None:
    values = {"a": 1, "b": -1, "c": 0, "x": 4}
    assert ratings([made_pack(1, ["x", "a"], values)]) == {}
    packs = [made_pack(1, ["a", "b"], values), made_pack(2, ["x", "c"], values)]
    rated = ratings(packs)
    assert set(rated) == {"a", "b"}, "c never met an anchor: x beside it is not rated"
    by = {s["entrant"]: s for s in standings(packs)}
    assert by["x"]["rating"] is None and by["c"]["rating"] is None


def test_noise_leaves_the_anchors_summing_to_zero_and_the_bot_within_its_interval() -> None:
    packs = []
    for i, bump in enumerate([1, -2, 0, 3, -1, 2]):
        noisy = {**VALUES, "x1": VALUES["x1"] + bump}
        packs += [made_pack(3 * i, ["random", "greedy"], noisy)]
        packs += [made_pack(3 * i + 1, ["greedy", "strong"], noisy)]
        packs += [made_pack(3 * i + 2, ["x1", "greedy"], noisy)]
    rated = ratings(packs)
    assert sum(rated[e].value for e in ("random", "greedy", "strong")) == pytest.approx(0)
    x1 = rated["x1"]
    assert x1.value == pytest.approx(-9 + 0.5)  # the mean of the bumps is 0.5
    assert x1.low is not None and x1.high is not None and x1.low < x1.value < x1.high
