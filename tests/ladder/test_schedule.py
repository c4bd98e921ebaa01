"""The ladder's schedule (app/ladder/schedule.py): which entrants play the next pack
and where each sits, so that every entrant plays every hand of a pack."""

from __future__ import annotations

import pytest

from app.engine.rules import RuleSet
from app.ladder.config import ladder_config
from app.ladder.entrants import Entrant, level_entrants, seat_player
from app.ladder.schedule import LadderConfig, PackPlan, key_of, next_table, plan_pack, tables

STRONG, GREEDY, RANDOM = Entrant.level("strong"), Entrant.level("greedy"), Entrant.level("random")


def test_each_entrant_plays_each_seat_once_per_pack() -> None:
    for players in range(2, 7):
        table = tuple(Entrant("level", f"e{i}") for i in range(players))
        seatings = PackPlan("s", players, RuleSet(), table).seatings()
        assert len(seatings) == players
        for entrant in table:
            seats = [deal.index(entrant.id) for deal in seatings]
            assert sorted(seats) == list(range(players)), (players, entrant)


def test_rotation_moves_every_entrant_one_seat_left_each_deal() -> None:
    plan = PackPlan("s", 3, RuleSet(), (RANDOM, GREEDY, STRONG))
    assert plan.seatings() == [
        ["random", "greedy", "strong"],
        ["strong", "random", "greedy"],
        ["greedy", "strong", "random"],
    ]


def test_tables_go_round_every_combination_least_played_first() -> None:
    config = LadderConfig(2, RuleSet(), (RANDOM, GREEDY, STRONG))
    assert [key_of(t) for t in tables(config.entrants, 2)] == [
        ("random", "greedy"),
        ("random", "strong"),
        ("greedy", "strong"),
    ]
    played: dict[tuple[str, ...], int] = {}
    order = []
    for _ in range(6):
        table = key_of(next_table(config, played))
        order.append(table)
        played[table] = played.get(table, 0) + 1
    assert order[:3] == [("random", "greedy"), ("random", "strong"), ("greedy", "strong")]
    assert order[3:] == order[:3]


def test_fewer_entrants_than_seats_share_the_extra_seats_in_turn() -> None:
    found = [key_of(t) for t in tables((RANDOM, GREEDY, STRONG), 4)]
    assert found == [
        ("random", "greedy", "strong", "random"),
        ("greedy", "strong", "random", "greedy"),
        ("strong", "random", "greedy", "strong"),
    ]


def test_a_plan_carries_its_seed_and_the_configured_rules() -> None:
    config = ladder_config(4, '{"partnership": true}', "strong,greedy")
    plan = plan_pack(config, {}, "abc")
    assert plan.seed == "abc" and plan.rules.partnership and plan.players == 4


@pytest.mark.parametrize(
    ("players", "rules", "entrants"),
    [
        (1, None, None),
        (7, None, None),
        (2, "{not json", None),
        (2, '{"partnership": true}', None),  # V1 needs four players
        (2, None, "strong"),
        (2, None, "strong,strong"),
        (2, None, "strong,wizard"),
        (2, None, "strong,outside:"),
    ],
)
def test_a_bad_configuration_is_refused_with_a_reason(
    players: int, rules: str | None, entrants: str | None
) -> None:
    with pytest.raises(ValueError, match=r".+"):
        ladder_config(players, rules, entrants)


def test_entrants_default_to_every_level_and_name_outside_bots_by_account() -> None:
    assert [e.id for e in level_entrants("")] == ["random", "greedy", "strong"]
    outside = Entrant.from_id("outside:acc1")
    assert (outside.kind, outside.name, outside.id) == ("outside", "acc1", "outside:acc1")


def test_an_outside_bot_is_not_played_yet() -> None:
    with pytest.raises(ValueError, match="outside"):
        seat_player(Entrant("outside", "acc1"), "seed", 0, 0, 10)
