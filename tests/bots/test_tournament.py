"""``krypkasino tournament``: seat rotation, statistics, text and JSON output."""

from __future__ import annotations

import json
import re

import pytest

from app.bots.tournament import format_table, run_tournament, t95
from app.cli import main
from app.engine.rules import RuleSet


def test_scores_add_up_over_whole_blocks():
    # 3 players, 6 deals = 2 packs each played in all 3 seatings
    result = run_tournament(3, ["greedy", "random", "random"], 6, seed=5)
    greedy, rnd = result.levels["greedy"], result.levels["random"]
    assert len(greedy.scores) == 6 and len(rnd.scores) == 12
    assert sorted(greedy.block_scores) == [0, 1]
    # every deal's scores add up to 42 (R6.3), so the level means weighted by seats do too
    s_g, s_r = greedy.summary(), rnd.summary()
    assert s_g["seats"] == 1 and s_r["seats"] == 2
    assert s_g["mean"] * 1 + s_r["mean"] * 2 == pytest.approx(42, abs=0.01)
    assert sum(greedy.scores) + sum(rnd.scores) == 42 * 6
    assert s_g["ci95"][0] < s_g["mean"] < s_g["ci95"][1]
    assert greedy.moves + rnd.moves == 6 * (104 - 5)  # every hand card, 5 on the table (R2.2)


def test_seats_rotate_and_the_pack_repeats():
    # two identical deterministic bots: the second deal of a block replays the first
    # deal's pack with the bots one seat further, so their scores come out swapped
    seen = []
    run_tournament(
        2, ["greedy", "greedy"], 4, seed=3, progress=lambda d, scores: seen.append(scores)
    )
    assert len(seen) == 4
    assert all(sum(scores) == 42 for scores in seen)
    assert seen[1] == seen[0][::-1] and seen[3] == seen[2][::-1]
    assert seen[0] != seen[2]  # a new pack per block


def test_same_seed_same_result():
    a = run_tournament(2, ["greedy", "random"], 4, seed=8).to_dict()
    b = run_tournament(2, ["greedy", "random"], 4, seed=8).to_dict()
    c = run_tournament(2, ["greedy", "random"], 4, seed=9).to_dict()
    strip = lambda d: [(lv["level"], lv["mean"]) for lv in d["levels"]]  # noqa: E731
    assert strip(a) == strip(b)
    assert strip(a) != strip(c)


def test_partnership_scores_are_team_scores():
    result = run_tournament(
        4, ["greedy", "random", "greedy", "random"], 4, seed=2, rules=RuleSet(partnership=True)
    )
    g, r = result.levels["greedy"], result.levels["random"]
    # partners sit opposite and rotate together: each deal both teams sum to 42
    assert sum(g.scores) + sum(r.scores) == 2 * 42 * 4


def test_t_quantiles():
    assert t95(1) == pytest.approx(12.706)
    assert t95(30) == pytest.approx(2.042)
    assert t95(1000) == pytest.approx(1.962, abs=0.002)


def test_cli_text(capsys):
    assert (
        main(
            [
                "tournament",
                "--players",
                "2",
                "--bots",
                "greedy,random",
                "--deals",
                "4",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("tournament: 2 players, 4 deals (2 packs")
    assert out[1].split() == [
        "level",
        "seats",
        "scores",
        "mean",
        "95%",
        "CI",
        "ms/move",
        "max",
        "ms",
        "moves",
    ]
    row = re.compile(
        r"^(greedy|random)\s+1\s+4\s+-?\d+\.\d\d\s+\[\s*-?\d+\.\d\d,\s+-?\d+\.\d\d\]"
        r"\s+\d+\.\d\s+\d+\.\d\s+\d+$"
    )
    assert [row.match(line).group(1) for line in out[2:4]] == ["greedy", "random"]
    assert out[4].startswith("lower is better")


def test_cli_json(capsys):
    assert (
        main(
            [
                "tournament",
                "--players",
                "3",
                "--bots",
                "strong,greedy,random",
                "--deals",
                "3",
                "--seed",
                "2",
                "--budget",
                "0.01",
                "--json",
                "--rules",
                '{"nordic": true}',
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 3 and data["deals"] == 3 and data["blocks"] == 1
    assert data["bots"] == ["strong", "greedy", "random"]
    assert data["rules"]["nordic"] is True and data["budget_s"] == 0.01
    levels = {lv["level"]: lv for lv in data["levels"]}
    assert set(levels) == {"strong", "greedy", "random"}
    for lv in levels.values():
        assert set(lv) >= {
            "seats",
            "deal_scores",
            "mean",
            "ci95",
            "half_width",
            "moves",
            "ms_per_move",
            "max_ms_per_move",
        }
        assert lv["deal_scores"] == 3 and lv["ci95"] is None  # one block: no interval
    assert sum(lv["mean"] for lv in levels.values()) == pytest.approx(36, abs=0.01)  # V3


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--players", "3", "--bots", "greedy,random"], "one bot level per seat"),
        (["--players", "2", "--bots", "greedy,genius"], "unknown bot level"),
        (["--players", "7"], "bad --rules"),
        (["--players", "2", "--rules", '{"partnership": true}'], "bad --rules"),
        (["--players", "2", "--deals", "0"], "--deals"),
    ],
)
def test_cli_errors(capsys, argv, message):
    assert main(["tournament", *argv]) == 2
    assert message in capsys.readouterr().err


def test_format_table_without_interval():
    result = run_tournament(2, ["random", "greedy"], 1, seed=1)
    text = format_table(result)
    assert "n/a" in text and "random" in text and "greedy" in text


def test_a_benchmark_may_bring_its_own_player():
    """``players_by_name``: a named chooser plays its seats (bench/search.py's variants)."""
    asked = []

    def first_legal(info, legal, rng, budget):
        asked.append((info.seat, budget))
        return legal[0]

    result = run_tournament(
        3,
        ["first", "greedy", "greedy"],
        3,
        seed=4,
        budget_s=0.2,
        players_by_name={"first": first_legal},
    )
    first = result.levels["first"]
    assert first.moves == len(asked) > 0 and {b for _, b in asked} == {0.2}
    assert len(first.scores) == 3 and sum(first.scores) + sum(result.levels["greedy"].scores) == 126
    with pytest.raises(ValueError, match="unknown bot level"):
        run_tournament(3, ["first", "greedy", "greedy"], 1, seed=4)
