"""The lean playout loop (app/engine/playout.py) against ``Deal``.

``krypkasino simulate`` plays its deals through the playout loop, so what it
checks and measures is only the engine's if the loop makes the engine's
moves: here every move of a playout is replayed through ``Deal.apply``
(which refuses an illegal move), the end must be the same, and with the
same random numbers the playout must make exactly the moves that
``play_random`` makes on a ``Deal`` (the same distinct legal moves, listed in
the same order, drawn alike).  Every rule set the loop covers is tried.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engine.cards import pack
from app.engine.deal import Deal
from app.engine.playout import Playout, playout, supports
from app.engine.rules import RuleSet
from app.simulation import (
    InvariantError,
    check_playout,
    play_random,
    random_deal,
    random_playout,
    simulate,
)
from tests.engine.test_properties import all_valid_setups

COVERED = [(players, rules) for players, rules in all_valid_setups() if supports(rules)]


def shuffled(rules: RuleSet, rng: random.Random) -> list[str]:
    cards = pack(rules.copies)
    rng.shuffle(cards)
    return cards


def setup_id(x: object) -> str:
    if isinstance(x, RuleSet):
        return "+".join(k for k, v in x.to_dict().items() if v) or "standard"
    return str(x)


@pytest.mark.parametrize("players,rules", COVERED, ids=setup_id)
def test_a_playout_makes_legal_moves_and_ends_as_the_deal_does(players: int, rules: RuleSet):
    rng = random.Random(hash((players, rules)) & 0xFFFF)
    for _ in range(3):
        dealer = rng.randrange(players)
        cards = shuffled(rules, rng)
        result = playout(rules, players, dealer, cards, rng.random, record=True)
        check_playout(result, rules)
        deal = Deal.from_pack(rules, players, dealer, cards)
        for move in result.record:
            deal.apply(move.card, move.take)  # raises if the move is not legal
        assert deal.is_over
        assert result.moves == len(result.record) == len(deal.moves)
        assert result.totals() == deal.totals()
        assert [Counter(p) for p in result.piles] == [Counter(p) for p in deal.piles]
        assert Counter(result.set_aside_other) == Counter(deal.set_aside_other)
        assert result.bordstabbe_seat == deal.bordstabbe_seat


@pytest.mark.parametrize("players,rules", COVERED[::7], ids=setup_id)
def test_a_playout_draws_the_moves_play_random_draws(players: int, rules: RuleSet):
    """Same seed, same moves: the loop lists the engine's legal moves in the engine's order."""
    for seed in range(4):
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        result = random_playout(rules, players, fast_rng)
        deal = random_deal(rules, players, slow_rng)
        moves = play_random(deal, slow_rng)
        assert result.moves == moves
        assert result.record == [] and result.totals() == deal.totals()
        assert fast_rng.random() == slow_rng.random()  # as many random numbers drawn


def test_recorded_moves_are_the_deal_moves() -> None:
    rules = RuleSet()
    for seed in range(20):
        rng = random.Random(seed)
        cards = shuffled(rules, rng)
        deal = Deal.from_pack(rules, 4, seed % 4, cards)
        state = rng.getstate()
        play_random(deal, rng)
        rng.setstate(state)
        result = playout(rules, 4, seed % 4, cards, rng.random, record=True)
        assert result.record == deal.moves


def test_v7_is_played_through_the_deal() -> None:
    rules = RuleSet(four_card_deal=True)
    assert not supports(rules)
    report = simulate(3, 4, seed=2, rules=rules)
    assert report.deals == 4 and report.moves == 4 * (104 - 4)  # every card but the table's


def broken(result: Playout) -> Playout:
    return Playout(
        [list(p) for p in result.piles],
        list(result.set_aside_other),
        list(result.left_over),
        list(result.card_points),
        list(result.sweep_transfers),
        result.bordstabbe_seat,
        result.moves,
    )


def test_the_playout_check_catches_lost_cards_and_wrong_scores() -> None:
    rules = RuleSet()
    result = random_playout(rules, 4, random.Random(8))
    check_playout(result, rules)
    lost = broken(result)
    next(p for p in lost.piles if p).pop()
    with pytest.raises(InvariantError, match="conserved"):
        check_playout(lost, rules)
    stuck = broken(result)
    stuck.left_over.append(stuck.piles[0].pop())
    with pytest.raises(InvariantError, match="left over"):
        check_playout(stuck, rules)
    wrong = broken(result)
    wrong.card_points[1] += 1
    with pytest.raises(InvariantError, match="add up"):
        check_playout(wrong, rules)
    unbalanced = broken(result)
    unbalanced.sweep_transfers[2] += 5
    with pytest.raises(InvariantError, match="add up"):
        check_playout(unbalanced, rules)
