"""The lean playout loop (app/engine/playout.py) against ``Deal``, move by move.

``krypkasino simulate`` plays its deals through the playout loop, a second
implementation of dealing, play and scoring, kept only because it is several
times cheaper per deal than ``Deal`` with its records.  It is kept honest by
this differential test: for every rule set the loop supports, built from
every combination of the deal-level options of the catalogue (rules.py)
that a player count can play, and for every player count 2-6, seeded deals
are played through both with the same random numbers, and every move, every
capture pile and every score must be the same.  The rule sets the loop does
not support must be the ones ``supports`` refuses.
"""

from __future__ import annotations

import itertools
import random

import pytest

from app.engine.cards import pack
from app.engine.deal import Deal
from app.engine.moves import ORDER_KEY
from app.engine.playout import Playout, playout, supports
from app.engine.rules import ALL_PLAYER_COUNTS, RULE_OPTIONS, RuleSet
from app.simulation import (
    InvariantError,
    check_playout,
    play_random,
    random_deal,
    random_playout,
    simulate,
)

DEAL_OPTIONS = [o for o in RULE_OPTIONS if o.scope == "deal"]
"""The options that change how a deal is played (the match-level ones never reach it)."""
DEALS_PER_SETUP = 16
"""Seeded deals per (player count, rule set): 224 supported setups, 3,584 deals."""


def rule_sets(players: int) -> list[RuleSet]:
    """Every combination of the deal-level options ``players`` can play (R7)."""
    names = [o.name for o in DEAL_OPTIONS if players in o.players]
    return [
        RuleSet(**dict(zip(names, values, strict=True)))
        for values in itertools.product([False, True], repeat=len(names))
    ]


ALL_SETUPS = [(players, rules) for players in ALL_PLAYER_COUNTS for rules in rule_sets(players)]
COVERED = [(players, rules) for players, rules in ALL_SETUPS if supports(rules)]
NOT_COVERED = [(players, rules) for players, rules in ALL_SETUPS if not supports(rules)]


def setup_id(x: object) -> str:
    if isinstance(x, RuleSet):
        return "+".join(k for k, v in x.to_dict().items() if v) or "standard"
    return str(x)


def play_uniformly(deal: Deal, random_draw: random.Random) -> None:
    """The contract the loop keeps: a move drawn as ``legal[int(random() * n)]`` from
    the deal's distinct legal moves in the engine's order, no draw for a single one."""
    while not deal.is_over:
        legal = deal.legal_moves()
        move = legal[0] if len(legal) == 1 else legal[int(random_draw.random() * len(legal))]
        deal.apply(move.card, move.take)


def assert_same_deal(fast: Playout, deal: Deal, where: str) -> None:
    """Every move, every capture pile, every score and every card of the two alike."""
    assert fast.record == deal.moves, where
    assert fast.moves == len(deal.moves), where
    assert fast.left_over == [] and not any(deal.hands) and deal.is_over, where
    award = deal.award
    assert award is not None, where
    for seat in range(deal.players):
        got, want = fast.piles[seat], deal.piles[seat]
        if seat == award.seat and award.cards:  # the award's order is the loop's own
            n = len(award.cards)
            assert sorted(got[-n:], key=ORDER_KEY) == list(award.cards), where
            got, want = got[:-n], want[:-n]
        assert got == want, (where, seat)
    assert sorted(fast.set_aside_other) == sorted(deal.set_aside_other), where
    assert fast.card_points == [s.card_points for s in deal.scores], where
    assert fast.sweep_transfers == [s.sweep_transfer for s in deal.scores], where
    assert fast.bordstabbe_seat == deal.bordstabbe_seat, where
    assert fast.totals() == deal.totals(), where


def test_the_setups_cover_every_deal_option_and_player_count():
    """The catalogue's every deal-level option is varied, for every player count."""
    assert {o.name for o in DEAL_OPTIONS} == {
        "partnership",
        "single_pack",
        "nordic",
        "no_forced_sweep",
        "bordstabbe",
        "strict_capture",
        "four_card_deal",
        "picture_pairs",
    }
    assert {p for p, _ in COVERED} == set(ALL_PLAYER_COUNTS)
    for option in DEAL_OPTIONS:
        for players in option.players:
            assert any(getattr(r, option.name) for p, r in ALL_SETUPS if p == players)
    assert len(COVERED) == 224 and len(COVERED) * DEALS_PER_SETUP >= 3000


def test_the_loop_refuses_exactly_the_four_card_deal():
    """The module doc says V7 is not covered; ``supports`` must say so, for every
    combination with it, and accept every other one (the caller relies on it)."""
    assert NOT_COVERED
    assert all(rules.four_card_deal for _, rules in NOT_COVERED)
    assert all(not rules.four_card_deal for _, rules in COVERED)
    assert not supports(RuleSet(four_card_deal=True))


@pytest.mark.parametrize("players,rules", COVERED, ids=setup_id)
def test_the_loop_plays_every_deal_exactly_as_the_deal_does(players: int, rules: RuleSet):
    for i in range(DEALS_PER_SETUP):
        rng = random.Random(f"differential:{players}:{setup_id(rules)}:{i}")
        cards = pack(rules.copies)
        rng.shuffle(cards)
        dealer = rng.randrange(players)
        draws = rng.getrandbits(64)
        fast = playout(rules, players, dealer, cards, random.Random(draws).random, record=True)
        deal = Deal.from_pack(rules, players, dealer, cards)
        play_uniformly(deal, random.Random(draws))
        assert_same_deal(fast, deal, f"{players} players, {setup_id(rules)}, deal {i}")


def test_match_level_options_change_nothing_in_a_playout():
    """V8 and V10 are match options: a playout with them is the playout without."""
    plain = RuleSet()
    with_match = RuleSet(match_deals=3, tie_break_deal=True)
    assert supports(with_match)
    for seed in range(10):
        cards = pack(2)
        random.Random(seed).shuffle(cards)
        a = playout(plain, 4, seed % 4, cards, random.Random(seed).random, record=True)
        b = playout(with_match, 4, seed % 4, cards, random.Random(seed).random, record=True)
        assert a.record == b.record and a.totals() == b.totals()


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
