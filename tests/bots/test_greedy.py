"""The greedy heuristic prefers the obviously better move in constructed positions."""

from __future__ import annotations

import pytest

from app.bots import choose_move, greedy
from app.bots.knowledge import knowledge_of, read_view
from app.engine.rules import RuleSet

from .helpers import as_dict, knowing, position, view_for

# Four seats; seat 0 is to move; the others hold a few cards the bot cannot see.
OTHERS = [["KD", "KH"], ["QD"], ["QH"]]


def moves_of(view):
    """The view's legal moves as {card, take} (the view adds kind and points)."""
    return [{"card": m["card"], "take": m["take"]} for m in view["legal"]]


def choose(hand, table, rules=None, others=OTHERS):
    deal = position([hand, *others], table, rules=rules)
    view = view_for(deal)
    assert len(view["legal"]) > 1
    move = as_dict(greedy.choose(*knowing(deal)))
    assert choose_move(view, "greedy") == move
    return view, move


def test_creeps_rather_than_capture_storan():
    # 10H must take the 10D if played (R3.3); the 5C creeps harmlessly
    view, move = choose(["10H", "5C"], ["10D", "9C", "8H"])
    assert {"card": "10H", "take": ["10D"]} in moves_of(view)
    assert move == {"card": "5C", "take": []}


def test_does_not_capture_with_storan():
    # playing the 10D itself would capture the 10H and put the 10D (3 points) in the pile
    view, move = choose(["10D", "5C"], ["10H", "9C", "8H"])
    assert view["legal"][0]["card"] == "5C"
    assert move == {"card": "5C", "take": []}
    # the move not taken really was a capture of 3 points
    assert {"card": "10D", "take": ["10H"]} in moves_of(view)


def test_prefers_the_capture_without_points():
    # 6C takes a lone 6 (no points); 9H must take 9S (1 point)
    view, move = choose(["6C", "9H"], ["6D", "9S", "KC"])
    assert move == {"card": "6C", "take": ["6D"]}


def test_sets_a_forced_sweep_trap():
    # creeping 7C leaves 3C 10H 7C: a 10 in the next hand must sweep it (10, 3+7; R4.1)
    # and the bot, as preceding player, gets -5; creeping 2D leaves nothing to sweep.
    view, move = choose(["2D", "7C"], ["3C", "10H"])
    assert [m["card"] for m in view["legal"]] == ["2D", "7C"]  # the trap is not the first
    assert move == {"card": "7C", "take": []}


def test_trap_counts_only_values_the_next_player_may_hold():
    # seat 3 faced 3C 7H and crept the 5H: under R4.1 it holds no 10 (it would have had
    # to sweep), so a table that only a 10 sweeps is no trap for it; for seat 1 it is.
    deal = position(
        [["2S", "AH"], ["KD", "KH"], ["QD", "QC"], ["5H", "JC", "JD"]],
        ["3C", "7H"],
        to_move=3,
        players=4,
        dealer=2,
    )
    deal.apply("5H", [])
    k = read_view(view_for(deal))
    assert k.lacks == {3: frozenset({10})}
    odds = greedy.unseen_trap_odds(k)
    assert odds(["3C", "7H"], 3, 2, False) == 0.0
    assert odds(["3C", "7H"], 1, 2, False) > 0.5
    # a fresh packet hand is not covered by what the seat showed before
    assert odds(["3C", "7H"], 3, 4, True) > 0.5


def test_avoids_a_double_sweep_when_forced():
    # R4.3: taking the lone 7H with its twin is a double (+10); with the 7C an ordinary one
    view, move = choose(["7H", "7C"], ["7H"])
    assert [m["card"] for m in view["legal"]] == ["7H", "7C"]
    assert move == {"card": "7C", "take": ["7H"]}


def test_sweeps_with_the_card_without_points_when_forced():
    view, move = choose(["7S", "7D"], ["3H", "4C"])
    assert [m["card"] for m in view["legal"]] == ["7S", "7D"]
    assert move == {"card": "7D", "take": ["3H", "4C"]}


def test_declines_an_optional_sweep():
    # V4: the sweep is optional, and it would cost +5
    view, move = choose(["7D", "9C"], ["3H", "4C"], rules=RuleSet(no_forced_sweep=True))
    assert moves_of(view)[0] == {"card": "7D", "take": ["3H", "4C"]}
    assert move == {"card": "9C", "take": []}


def test_dumps_a_point_card_rather_than_a_blank():
    # two harmless creeps: getting rid of the 10D while it cannot capture is better
    view, move = choose(["3C", "10D"], ["KC", "QH"])
    assert [m["card"] for m in view["legal"]] == ["3C", "10D"]
    assert move == {"card": "10D", "take": []}


@pytest.mark.parametrize("nordic, expected", [(False, "9H"), (True, "10H")])
def test_nordic_storan_is_worth_nothing(nordic, expected):
    # both cards must capture: 10H takes the 10D (3 points, 0 under V3), 9H the 9S (1 point)
    view, move = choose(["10H", "9H"], ["10D", "9S", "KC"], rules=RuleSet(nordic=nordic))
    assert move["card"] == expected


def test_costs_weigh_the_engines_facts_of_a_move():
    """The cost of a move follows what the engine says it is worth: the same card and
    take cost more when the engine counts more points or a sweep for them."""
    deal = position([["7S", "7D"], *OTHERS], ["3H", "4C"])
    info, legal = knowing(deal)
    k = knowledge_of(info)
    ranked = greedy.ranked_moves(k, legal)
    costs = greedy.Costs(
        k.rules, k.players, k.dealer, k.me, k.table, k.hand_counts, k.stock_count,
        k.last_capturer, k.set_aside_spades, greedy.unseen_trap_odds(k),
    )  # fmt: skip
    for cost, move in ranked:
        assert costs.cost_of(move) == cost
        base = costs.cost(move.card, move.take, move.kind, move.points, move.sweep)
        more = costs.cost(move.card, move.take, move.kind, move.points + 3, move.sweep)
        assert more == pytest.approx(base + 3)
    assert [m.sweep for _, m in ranked] == [5, 5]  # R4.1: only the two sweeps are legal
