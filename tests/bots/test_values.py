"""The coach's search: expected final points per legal move, from the seat's knowledge only."""

from __future__ import annotations

import random

import pytest

from app.bots import values
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack

from .helpers import knowing, position, twin_deals


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (3, {"nordic": True}), (4, {"partnership": True}), (2, {"picture_pairs": True})],
)
def test_points_so_far_are_the_engines_score_at_every_turn(players, options):
    rules = RuleSet.from_dict(options)
    deal = Deal.from_pack(rules, players, 0, shuffled_pack(f"so-far:{players}", rules.copies))
    rng = random.Random(players)
    while not deal.is_over:
        seat = deal.to_move
        info = deal.information_set(seat)
        assert values.points_so_far(info) == deal.scores[seat].total
        for other in range(players):  # every seat's, from the same public log
            assert values.points_so_far(info, other) == deal.scores[other].total
        move = rng.choice(deal.legal())
        deal.apply(move.card, move.take)


def test_one_value_per_legal_move_and_reproducible():
    deal = Deal.from_pack(RuleSet(), 4, 0, shuffled_pack("values", 2))
    for _ in range(11):
        move = deal.legal()[0]
        deal.apply(move.card, move.take)
    info, legal = knowing(deal)
    got = values.move_values(info, legal, random.Random(3), worlds=6)
    assert list(got) == list(legal)
    assert got == values.move_values(info, legal, random.Random(3), worlds=6)
    assert all(-60 < v < 80 for v in got.values())


def test_a_whole_deal_ends_with_the_points_the_values_promise():
    """In the last play of a deal nothing is hidden: the value is the final score."""
    deal = Deal.from_pack(RuleSet(), 2, 0, shuffled_pack("values-end", 2))
    while len(deal.hands[0]) + len(deal.hands[1]) + len(deal.stock) > 1:
        move = deal.legal()[-1]
        deal.apply(move.card, move.take)
    seat = deal.to_move
    info, legal = knowing(deal)
    got = values.move_values(info, legal, random.Random(1), worlds=2)
    (move,) = legal
    deal.apply(move.card, move.take)
    assert got[move] == deal.scores[seat].total


@pytest.mark.parametrize("plies", [0, 6])
def test_hidden_cards_do_not_change_the_values(plies):
    deal_a, deal_b = twin_deals(f"values-hidden:{plies}", 2, plies)
    info_a, legal_a = knowing(deal_a)
    info_b, legal_b = knowing(deal_b)
    assert info_a == info_b and legal_a == legal_b
    assert values.move_values(info_a, legal_a, random.Random(7), worlds=4) == values.move_values(
        info_b, legal_b, random.Random(7), worlds=4
    )


def test_the_trap_is_worth_points():
    """Creeping the 7 leaves 3+10+7 = 20, which the next seat's king cannot take but ...
    the search's own trap test (test_strong.py): the creep is the better move by points."""
    deal = position([["2D", "7C"], ["KD", "KH"], ["QD"], ["QH"]], ["3C", "10H"])
    info, legal = knowing(deal)
    got = values.move_values(info, legal, random.Random(5), worlds=30)
    best = min(got, key=got.__getitem__)
    assert (best.card, best.take) == ("7C", ())


def test_a_budget_stops_after_at_least_one_world():
    deal = Deal.from_pack(RuleSet(), 3, 0, shuffled_pack("values-budget", 2))
    info, legal = knowing(deal)
    got = values.move_values(info, legal, random.Random(2), budget_s=1e-9)
    assert set(got) == set(legal)
    with pytest.raises(ValueError):
        values.move_values(info, (), random.Random(2))
