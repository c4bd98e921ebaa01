"""The player that plays the coach's best move (app/coach/player.py, the benchmark of
docs/bots.md): always a legal move, the safe one where a sweep costs, from the seat's
information only, the same for the same seed."""

from __future__ import annotations

import random

from app.coach.player import coach_move
from app.coach.rating import Settings
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from tests.bots.helpers import knowing, twin_deals

QUICK = Settings(samples=8, max_samples=8, prune_after=4, prune_every=2)


def test_it_declines_the_sweep_that_costs() -> None:
    # V4: seat 0 may sweep 4+5 with its nine or creep the king (test_rating.py's case)
    rules = RuleSet(no_forced_sweep=True)
    deal = Deal.resume(rules, 2, 1, [["9S", "KD"], ["QC", "JC"]], ["4C", "5H"], [], 0)
    assert coach_move(deal.information_set(0), deal.legal(), random.Random(1), QUICK).card == "KD"


def test_whole_deals_are_played_with_legal_moves_only() -> None:
    for players, options in ((4, {}), (3, {"nordic": True}), (4, {"partnership": True})):
        rules = RuleSet.from_dict(options)
        deal = Deal.from_pack(rules, players, 0, shuffled_pack(f"coach-player:{players}", 2))
        rng = random.Random(players)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            legal = deal.legal()
            move = coach_move(deal.information_set(seat), legal, rng, QUICK)
            assert move in legal
            deal.apply(move.card, move.take)


def test_the_same_seed_and_the_same_knowledge_give_the_same_move() -> None:
    deal_a, deal_b = twin_deals("coach-player-hidden", 1, 7)
    info_a, legal_a = knowing(deal_a)
    info_b, legal_b = knowing(deal_b)
    assert info_a == info_b
    moves = {coach_move(i, legal_a, random.Random(5), QUICK) for i in (info_a, info_b)}
    assert len(moves) == 1
