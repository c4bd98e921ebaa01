"""app/tournaments/plan.py: a plan is checked once, refusing every field that cannot
be run with ``bad_tournament``, and survives its JSON round trip unchanged."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.rules import RuleSet
from app.tournaments.errors import TournamentCode, TournamentRefused
from app.tournaments.plan import (
    BOARDS_MAX,
    CAP_MAX,
    ROUND_MINUTES_MAX,
    ROUNDS_MAX,
    EventPlan,
)

GOOD = [
    EventPlan("swiss", 4),
    EventPlan("duplicate", 2, boards=BOARDS_MAX, scoring="difference", cap=CAP_MAX),
    EventPlan("swiss", 6, rounds=ROUNDS_MAX, turn_clock=None, bot_level="strong"),
    EventPlan("duplicate", 3, pace="correspondence", turn_clock=None, days_per_move=7),
    EventPlan("swiss", 4, rules=RuleSet(partnership=True), entry="club", cap=2),
    EventPlan("swiss", 2, round_minutes=5),
    EventPlan("swiss", 3, pace="correspondence", days_per_move=1, round_minutes=ROUND_MINUTES_MAX),
]


@pytest.mark.parametrize("plan", GOOD)
def test_a_plan_that_can_be_run_passes(plan: EventPlan) -> None:
    """Limits included (36 boards, 15 rounds, cap 2..120): nothing is refused."""
    plan.check("club1")


@pytest.mark.parametrize(
    ("plan", "club_id"),
    [
        (EventPlan("swiss", 7), None),
        (EventPlan("swiss", 1), None),
        (EventPlan("swiss", 4, rounds=0), None),
        (EventPlan("swiss", 4, rounds=ROUNDS_MAX + 1), None),
        (EventPlan("duplicate", 4, boards=37), None),
        (EventPlan("duplicate", 4, boards=0), None),
        (EventPlan("swiss", 4, cap=1), None),
        (EventPlan("swiss", 4, cap=CAP_MAX + 1), None),
        (EventPlan("swiss", 4, entry="club"), None),
        (EventPlan("swiss", 4, pace="correspondence"), None),
        (EventPlan("swiss", 4, pace="correspondence", days_per_move=4), None),
        (EventPlan("swiss", 4, turn_clock=5), None),
        (EventPlan("swiss", 4, turn_clock=601), None),
        (EventPlan("swiss", 4, days_per_move=2), None),
        (EventPlan("knockout", 4), None),  # type: ignore[arg-type]
        (EventPlan("duplicate", 4, scoring="imps"), None),  # type: ignore[arg-type]
        (EventPlan("swiss", 4, bot_level="genius"), None),
        (EventPlan("swiss", 4, pace="blitz"), None),  # type: ignore[arg-type]
        (EventPlan("swiss", 3, rules=RuleSet(partnership=True)), None),
        (EventPlan("swiss", 4, round_minutes=4), None),
        (EventPlan("swiss", 4, round_minutes=ROUND_MINUTES_MAX + 1), None),
        (EventPlan("duplicate", 4, round_minutes=30), None),
        (EventPlan("arena", 4, round_minutes=30), None),
    ],
)
def test_each_bad_field_is_refused_as_bad_tournament(plan: EventPlan, club_id: str | None) -> None:
    """Each plan differs from a good one in one field; each is refused with the one
    code clients act on, and a message for people."""
    with pytest.raises(TournamentRefused) as refused:
        plan.check(club_id)
    assert refused.value.code == TournamentCode.BAD_TOURNAMENT
    assert refused.value.message


PLANS = st.builds(
    EventPlan,
    format=st.sampled_from(["swiss", "duplicate"]),
    players=st.integers(2, 6),
    rounds=st.integers(1, ROUNDS_MAX),
    boards=st.integers(1, BOARDS_MAX),
    scoring=st.sampled_from(["matchpoints", "difference"]),
    bot_level=st.sampled_from(["random", "greedy", "strong"]),
    turn_clock=st.none() | st.floats(10, 600),
    cap=st.integers(2, CAP_MAX),
    rules=st.builds(RuleSet, nordic=st.booleans(), bordstabbe=st.booleans()),
).map(lambda p: p if p.format != "swiss" else dataclasses.replace(p, round_minutes=p.cap * 60))


@settings(max_examples=50, deadline=None)
@given(PLANS)
def test_to_json_and_back_is_the_same_plan(plan: EventPlan) -> None:
    """Stored as JSON text and read back, a plan is equal to what was stored."""
    plan.check(None)
    stored = json.loads(json.dumps(plan.to_json()))
    assert EventPlan.from_json(stored) == plan
    assert plan.stages == (plan.rounds if plan.format == "swiss" else plan.boards)


@pytest.mark.parametrize(
    "data",
    [[], "swiss", {"format": "swiss"}, {"format": "swiss", "players": 4, "colour": "red"}],
)
def test_from_json_refuses_what_is_not_a_plan(data: object) -> None:
    """Not an object, a missing field, an unknown field: bad_tournament, not a crash."""
    with pytest.raises(TournamentRefused) as refused:
        EventPlan.from_json(data)
    assert refused.value.code == TournamentCode.BAD_TOURNAMENT


def test_a_plan_stored_before_rounds_at_set_times_reads_as_without_them() -> None:
    """Events stored before ``round_minutes`` existed have no such key: their rounds
    start as soon as the one before finishes, as they did."""
    stored = EventPlan("swiss", 4).to_json()
    del stored["round_minutes"]  # type: ignore[misc]
    assert EventPlan.from_json(stored).round_minutes is None
