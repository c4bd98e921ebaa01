"""Every public scenario (copied from the exchange format's public set) reproduces its expect.

Compared the way the exchange format defines agreement: results with taken
cards as multisets, the error's code and move, the state fields, the score
fields per seat, legal moves as a set; extra keys are allowed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from app.engine import scenario
from app.engine.errors import EngineError
from tests.conftest import FIXTURES, ROOT

FILES = sorted((FIXTURES / "scenarios").glob("*.json"))
OWN_FILES = sorted((FIXTURES / "scenarios-own").glob("*.json"))
"""The project's own scenarios (V9, V10, R4.2, R4.3), in the same format."""
SCORE_FIELDS = [
    "card_points",
    "sweeps",
    "double_sweeps",
    "sweeps_conceded",
    "double_sweeps_conceded",
    "total",
]


def _multiset(cards):
    return sorted(Counter(cards).items())


def _legal_set(moves):
    return sorted((m["card"], tuple(sorted(m["take"]))) for m in moves)


def assert_agrees(out: dict, expect: dict) -> None:
    assert [(r["seat"], r["card"], r["kind"], _multiset(r["taken"])) for r in out["results"]] == [
        (r["seat"], r["card"], r["kind"], _multiset(r["taken"])) for r in expect["results"]
    ]
    if expect["error"] is None:
        assert out["error"] is None
    else:
        assert out["error"] is not None
        assert (out["error"]["code"], out["error"]["move"]) == (
            expect["error"]["code"],
            expect["error"]["move"],
        )
    assert out["deal_over"] == expect["deal_over"]
    for key, want in expect["state"].items():
        got = out["state"][key]
        if key == "hands":
            assert [_multiset(h) for h in got] == [_multiset(h) for h in want], key
        elif isinstance(want, list):
            assert _multiset(got) == _multiset(want), key
        else:
            assert got == want, key
    assert {s["seat"]: [s[k] for k in SCORE_FIELDS] for s in out["scores"]} == {
        s["seat"]: [s[k] for k in SCORE_FIELDS] for s in expect["scores"]
    }
    if "legal" in expect:
        assert _legal_set(out["legal"]) == _legal_set(expect["legal"])
    else:
        assert "legal" not in out or out["deal_over"]


def test_public_scenarios_are_all_present():
    assert len(FILES) == 42


@pytest.mark.parametrize("path", FILES + OWN_FILES, ids=[p.stem for p in FILES + OWN_FILES])
def test_public_scenario(path):
    data = json.loads(path.read_text())
    expect = data["expect"]
    if "exit" in expect:
        assert expect["exit"] == 2
        with pytest.raises(EngineError):
            scenario.run(data)
        return
    assert_agrees(scenario.run(data), expect)


@pytest.mark.parametrize("name", ["e1_forced_sweep", "bad_unknown_card"])
def test_scenario_command_output_and_exit_status(name):
    """The console command prints the result (exit 0) or one line on stderr (exit 2)."""
    path = FIXTURES / "scenarios" / f"{name}.json"
    expect = json.loads(path.read_text())["expect"]
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "scenario", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if "exit" in expect:
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1
        assert "Traceback" not in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert_agrees(json.loads(proc.stdout), expect)


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"players": "two"}',
        '{"players": 2, "dealer": 0}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], '
        '"table": [], "moves": [{"card": 5}]}',
    ],
)
def test_malformed_input_exits_2_with_one_line(text):
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "scenario", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "text",
    [
        '{"players": 2, "dealer": 0, "hands": null, "table": []}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], null], "table": []}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": null}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], "stock": null}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], "moves": null}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], "rules": null}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], "moves": [null]}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], '
        '"moves": [{"card": "3H", "take": "4H"}]}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], '
        '"rules": {"tie_break_deal": 1}}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], '
        '"rules": {"match_deals": "six", "match_limit": 100}}',
        '{"players": 2, "dealer": 0, "hands": [["2H"], ["3H"]], "table": [], '
        '"rules": {"match_deals": 6, "match_length": 100}}',
    ],
)
def test_null_or_a_wrong_type_where_format_wants_a_list_is_malformed(text):
    """FORMAT.md: only a missing stock/moves defaults to []; null is no list (exit 2)."""
    with pytest.raises(EngineError):
        scenario.run(json.loads(text))


def test_match_level_options_are_accepted_and_change_nothing_in_a_deal():
    """FORMAT.md: match_deals, match_limit (V8) and tie_break_deal (V10) replay as served."""
    base = json.loads((FIXTURES / "scenarios" / "e1_forced_sweep.json").read_text())
    plain = scenario.run(base)
    base["rules"] = {"match_deals": 6, "tie_break_deal": True, "match_limit": None}
    assert scenario.run(base)["results"] == plain["results"]
    assert scenario.run(base)["scores"] == plain["scores"]


def _e1_with_rules(rules: dict) -> dict:
    data = json.loads((FIXTURES / "scenarios" / "e1_forced_sweep.json").read_text())
    data["rules"] = rules
    return data


def test_a_scenario_with_both_match_length_options_is_played_and_they_are_ignored():
    """FORMAT.md: match_deals and match_limit are accepted and ignored even together
    (a room's deal record carries its rules as served), and the deal is the same."""
    plain = scenario.run(_e1_with_rules({}))
    both = _e1_with_rules({"match_deals": 6, "match_limit": 100, "tie_break_deal": True})
    out = scenario.run(both)
    assert out["error"] is None and out["results"][0]["kind"] == "sweep"
    assert (out["results"], out["scores"], out["state"]) == (
        plain["results"],
        plain["scores"],
        plain["state"],
    )
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "scenario", "-"],
        input=json.dumps(both),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scores"] == plain["scores"]


def test_deal_options_beside_both_match_options_still_apply():
    """Only the match-level options are dropped: V3 still makes the 10D worth 0."""
    data = _e1_with_rules({"match_deals": 2, "match_limit": 50})
    data.update(hands=[["4H"], ["10H", "4C"]], table=["10D", "5S"])
    data["moves"] = [{"card": "10H", "take": ["10D"]}]  # a capture, not a sweep
    standard = scenario.run(data)
    data["rules"] = {"match_deals": 2, "match_limit": 50, "nordic": True}
    nordic = scenario.run(data)
    assert standard["scores"][1]["card_points"] == 3  # storan (R6.1)
    assert nordic["scores"][1]["card_points"] == 0  # V3


def test_a_rooms_rule_set_still_refuses_both_match_length_options():
    """V8: a room plays a fixed number of deals or to a limit, not both."""
    from app.engine.errors import RulesError
    from app.engine.rules import RuleSet

    with pytest.raises(RulesError, match="choose either"):
        RuleSet.from_dict({"match_deals": 6, "match_limit": 100})


@pytest.mark.parametrize("value", [0, 1001, 5000])
@pytest.mark.parametrize("option", ["match_deals", "match_limit"])
def test_any_whole_number_of_a_match_option_is_accepted_in_a_scenario(option, value):
    """FORMAT.md: the match options are whole numbers, accepted and ignored; a room's
    range (1 to 1000) is the room's, not the scenario's (fresh random scenarios with
    0 exited 2 with "must be between 1 and 1000")."""
    plain = scenario.run(_e1_with_rules({}))
    out = scenario.run(_e1_with_rules({option: value}))
    assert out["error"] is None
    assert (out["results"], out["scores"]) == (plain["results"], plain["scores"])
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "scenario", "-"],
        input=json.dumps(_e1_with_rules({option: value})),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("value", [-1, 2.5, "6", True])
def test_a_match_option_that_is_no_whole_number_is_malformed(value):
    with pytest.raises(EngineError):
        scenario.run(_e1_with_rules({"match_deals": value}))


def test_a_rooms_rule_set_keeps_its_range_of_match_options():
    from app.engine.errors import RulesError
    from app.engine.rules import RuleSet

    with pytest.raises(RulesError, match="between 1 and 1000"):
        RuleSet.from_dict({"match_deals": 0})
