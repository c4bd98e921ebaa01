"""A seat's information set and the deals resampled from it (app/engine/infoset.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engine.cards import hand_value
from app.engine.errors import SetupError
from app.engine.infoset import InformationSet
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.views import match_view
from app.simulation import random_deal


def _played(players: int, moves: int, seed: int, rules: RuleSet | None = None):
    rng = random.Random(seed)
    deal = random_deal(rules or RuleSet(), players, rng)
    for _ in range(moves):
        m = rng.choice(deal.legal_moves())
        deal.apply(m.card, m.take)
    return deal


@pytest.mark.parametrize("players,moves,seed", [(2, 0, 1), (3, 17, 2), (4, 33, 3), (6, 40, 4)])
def test_the_view_and_the_deal_give_the_same_information_set(players, moves, seed):
    deal = _played(players, moves, seed)
    seat = deal.to_move
    view = match_view(Match(deal.rules, players, deal.dealer), deal, seat, "playing", 1)
    assert InformationSet.from_view(view) == InformationSet.of_deal(deal, seat)


@pytest.mark.parametrize(
    "rules",
    [RuleSet(picture_pairs=True), RuleSet(four_card_deal=True), RuleSet(partnership=True)],
    ids=["v9", "v7", "v1"],
)
@pytest.mark.parametrize("moves,seed", [(0, 5), (9, 6), (27, 7)])
def test_every_seats_view_gives_that_seats_information_set(rules, moves, seed):
    """Not only the seat to move, and under rules other than the defaults: the view's
    own seat, its rules and its dealer are read from the view, not assumed."""
    deal = _played(4, moves, seed, rules)
    match = Match(deal.rules, 4, deal.dealer)
    for seat in range(4):
        view = match_view(match, deal, seat, "playing", 1)
        got = InformationSet.from_view(view)
        assert got == InformationSet.of_deal(deal, seat), seat
        assert got.rules == rules and got.seat == seat and got.hidden == len(got.unseen)


@pytest.mark.parametrize(
    "rules",
    [RuleSet(), RuleSet(picture_pairs=True), RuleSet(four_card_deal=True)],
    ids=["standard", "v9", "v7"],
)
def test_a_resampled_deal_differs_only_in_what_the_seat_cannot_see(rules):
    deal = _played(3, 20, 5, rules)
    seat = deal.to_move
    world = deal.resample_from_infostate(seat, random.Random(9))
    assert world.to_move == seat and world.hands[seat] == deal.hands[seat]
    assert world.table == deal.table and world.last_capturer == deal.last_capturer
    assert world.set_aside_spades == deal.set_aside_spades
    assert [len(h) for h in world.hands] == [len(h) for h in deal.hands]
    assert len(world.stock) == len(deal.stock)
    hidden = lambda d: Counter(  # noqa: E731
        [c for s, h in enumerate(d.hands) if s != seat for c in h] + d.stock
    )
    assert hidden(world) == hidden(deal)
    assert world.legal_moves() == deal.legal_moves()  # the seat's own choices are the same
    others = [deal.resample_from_infostate(seat, random.Random(i)) for i in range(5)]
    assert len({tuple(map(tuple, w.hands)) for w in others}) > 1  # the hidden cards move


def test_only_the_seat_to_move_is_resampled():
    deal = _played(2, 3, 6)
    with pytest.raises(SetupError):
        deal.resample_from_infostate(1 - deal.to_move, random.Random(1))


def test_known_gaps_keep_values_out_of_a_hand():
    deal = _played(2, 0, 7)
    seat = deal.to_move
    info = InformationSet.of_deal(deal, seat)
    other = 1 - seat
    lacks = {other: frozenset(range(2, 8))}
    hands, stock = info.sample_hidden(random.Random(3), lacks)
    assert all(hand_value(c) not in lacks[other] for c in hands[other])
    assert Counter(hands[other] + stock) == Counter(info.unseen)
