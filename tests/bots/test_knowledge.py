"""What a seat knows: the unseen cards and the gaps its information set proves."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.bots import choose_move
from app.bots.knowledge import knowledge_of, prob_none, read_view
from app.engine.cards import hand_value
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack

from .helpers import CONFIGS, config_id, position, view_for


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_unseen_cards_are_exactly_the_hidden_ones(config):
    """For the seat to move and another seat at every turn: the unseen cards are the
    other hands plus the stock (as multisets), and every inferred gap is true."""
    players, options = config
    rules = RuleSet.from_dict(options)
    rng = random.Random(config_id(config))
    deal = Deal.from_pack(
        rules, players, rng.randrange(players), shuffled_pack(config_id(config), rules.copies)
    )
    lacks_seen = 0
    while not deal.is_over:
        mover = deal.to_move
        for seat in (mover, (mover + 1 + len(deal.results)) % players):
            k = read_view(view_for(deal, seat))
            assert k == knowledge_of(deal.information_set(seat))  # the view says the same
            hidden = Counter(deal.stock)
            for other in range(players):
                if other != seat:
                    hidden.update(deal.hands[other])
            assert Counter(k.unseen) == hidden
            assert k.consistent and k.hidden == len(k.unseen)
            assert k.last_player == (deal.results[-1].seat if deal.results else deal.dealer)
            for other, values in k.lacks.items():
                assert other != seat
                lacks_seen += 1
                held = {hand_value(c) for c in deal.hands[other]}
                assert not held & values, (other, sorted(values), deal.hands[other])
        view = view_for(deal)
        move = choose_move(view, rng.choice(["random", "greedy"]), rng=rng)
        deal.apply(move["card"], move["take"])
    if rules.forced_sweep or rules.strict_capture:
        assert lacks_seen  # the inference had something to say in a whole deal


def test_unseen_counts_twins_and_the_opening_table():
    # opening table 5H 9C KS (the KS is set aside, R2.4); seat 1 leads
    deal = Deal.from_position(
        RuleSet(), 2, 0, [["2C", "3C"], ["5H", "8D"]], ["5H", "9C", "KS"], to_move=1
    )
    deal.apply("5H", ["5H"])  # a capture of the twin
    deal.apply("2C", [])  # a creep
    k = read_view(view_for(deal, 1))
    unseen = Counter(k.unseen)
    assert unseen["5H"] == 0 and unseen["KS"] == 1 and unseen["2C"] == 1 and unseen["8D"] == 1
    assert unseen["3C"] == 2 and unseen["9C"] == 1
    assert len(k.unseen) == 104 - 6
    assert k.set_aside_spades == ("KS",)


def test_forced_sweep_refusal_is_inferred():
    # seat 1 faced 3C 7H and crept a 2: under R4.1 it holds no 10 (3+7) and no... only 10 sweeps
    deal = position([["KD", "KH"], ["2D", "QC"], ["JD", "JH"]], ["3C", "7H"], to_move=1)
    deal.apply("2D", [])
    k = read_view(view_for(deal, 2))
    assert k.lacks == {1: frozenset({10})}
    # without forced sweeps nothing follows
    deal = position(
        [["KD", "KH"], ["2D", "QC"], ["JD", "JH"]],
        ["3C", "7H"],
        to_move=1,
        rules=RuleSet(no_forced_sweep=True),
    )
    deal.apply("2D", [])
    assert read_view(view_for(deal, 2)).lacks == {}


def test_strict_capture_creep_is_inferred():
    deal = position(
        [["KD", "KH"], ["2D", "QC"], ["JD", "JH"]],
        ["3C", "7H"],
        to_move=1,
        rules=RuleSet(strict_capture=True),
    )
    deal.apply("2D", [])
    lacks = read_view(view_for(deal, 2)).lacks[1]
    assert lacks == frozenset({3, 7, 10})  # each forms a group on 3C 7H


def test_prob_none():
    assert prob_none(10, 0, 4) == 1.0
    assert prob_none(10, 7, 4) == 0.0
    assert prob_none(10, 1, 1) == pytest.approx(0.9)
    assert prob_none(10, 2, 2) == pytest.approx(28 / 45)
