"""The information-set MCTS candidate: legal, from the seat's knowledge only, reproducible."""

from __future__ import annotations

import random

import pytest

from app.bots import ismcts
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack

from .helpers import CONFIGS, config_id, knowing, position, twin_deals


@pytest.mark.parametrize("config", CONFIGS[::4], ids=config_id)
def test_only_ever_plays_legal_moves(config):
    """A whole deal of searching seats (few iterations), every fourth variant set."""
    players, options = config
    rules = RuleSet.from_dict(options)
    deal = Deal.from_pack(
        rules, players, 0, shuffled_pack(f"ismcts:{config_id(config)}", rules.copies)
    )
    rng = random.Random(config_id(config))
    while not deal.is_over:
        info, legal = knowing(deal)
        move = ismcts.choose(info, legal, rng, iterations=3)
        assert move in legal
        deal.apply(move.card, move.take)  # the engine agrees


@pytest.mark.parametrize("plies", [0, 6])
def test_hidden_cards_do_not_change_the_decision(plies):
    """Two deals that differ only in cards the seat cannot see: the same search, move."""
    deal_a, deal_b = twin_deals(f"ismcts-hidden:{plies}", 1, plies)
    info_a, legal_a = knowing(deal_a)
    info_b, legal_b = knowing(deal_b)
    assert info_a == info_b and legal_a == legal_b
    assert deal_a.hands != deal_b.hands or deal_a.stock != deal_b.stock
    a = ismcts.choose(info_a, legal_a, random.Random(9), iterations=40)
    stats_a = dict(ismcts.last_search)
    b = ismcts.choose(info_b, legal_b, random.Random(9), iterations=40)
    assert a == b
    assert stats_a["nodes"] == ismcts.last_search["nodes"]  # the very same tree


def test_deterministic_for_a_seeded_rng_and_fixed_iterations():
    deal = Deal.from_pack(RuleSet(), 4, 0, shuffled_pack("ismcts-determinism", 2))
    for _ in range(9):
        move = deal.legal()[0]
        deal.apply(move.card, move.take)
    info, legal = deal.information_set(deal.to_move), deal.legal()
    first = ismcts.choose(info, legal, random.Random(4), iterations=30)
    assert [ismcts.choose(info, legal, random.Random(4), iterations=30) for _ in range(2)] == [
        first,
        first,
    ]


def test_finds_the_forced_sweep_trap():
    deal = position([["2D", "7C"], ["KD", "KH"], ["QD"], ["QH"]], ["3C", "10H"])
    move = ismcts.choose(*knowing(deal), random.Random(5), iterations=200)
    assert (move.card, move.take) == ("7C", ())


def test_a_time_budget_answers_a_legal_move():
    deal = Deal.from_pack(RuleSet(), 3, 0, shuffled_pack("ismcts-budget", 2))
    info, legal = knowing(deal)
    assert ismcts.choose(info, legal, random.Random(1), budget_s=0.05) in legal
    assert ismcts.choose(info, legal, random.Random(1), budget_s=0.0) in legal  # greedy's
