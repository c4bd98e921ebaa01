"""What plays prove about hidden hands (R4.1, V6): app/engine/inference.py."""

from __future__ import annotations

import random

import pytest

from app.engine.cards import hand_value
from app.engine.deal import Deal
from app.engine.inference import faced_tables, lacks_from_plays, proven_lacks
from app.engine.results import LogEntry
from app.engine.rules import RuleSet
from app.simulation import random_deal


def _creep(seat: int, card: str) -> LogEntry:
    return LogEntry(seat, card, "creep", ())


def _position(rules: RuleSet) -> Deal:
    return Deal.from_position(
        rules, 3, 0, [["KD", "KH"], ["2D", "QC"], ["JD", "JH"]], ["3C", "7H"], [], 1, opening=False
    )


def test_a_seat_that_did_not_sweep_holds_no_sweeping_value():
    """R4.1: seat 1 faced 3C 7H (only a 10 sweeps it) and crept a 2: it holds no 10."""
    deal = _position(RuleSet())
    deal.apply("2D", [])
    assert proven_lacks(deal.information_set(2)) == {1: frozenset({10})}
    assert proven_lacks(deal.information_set(1)) == {}  # nothing about oneself


def test_without_forced_sweeps_a_creep_proves_nothing():
    deal = _position(RuleSet(no_forced_sweep=True))
    deal.apply("2D", [])
    assert proven_lacks(deal.information_set(2)) == {}


def test_under_strict_capture_a_creep_proves_no_capturing_value():
    """V6: 3, 7 and 10 each form a group on 3C 7H."""
    deal = _position(RuleSet(strict_capture=True))
    deal.apply("2D", [])
    assert proven_lacks(deal.information_set(2)) == {1: frozenset({3, 7, 10})}


def test_only_the_plays_of_the_current_packet_count():
    """Cards dealt in a new packet were not held at the plays before it."""
    log = [_creep(1, "2D")]
    # 4 players, opening of 5 each: 20 dealt; one played, 19 in hands -> the same packet
    assert lacks_from_plays(RuleSet(), 4, 0, ["3C", "7H", "2D"], [5, 4, 5, 5], log) == {1: {10}}
    # the opening was played out and a packet of 16 dealt: no play was made with these hands
    filler = [_creep(s % 4, "5C") for s in range(19)]
    table = ["3C", "7H", "2D"]
    assert lacks_from_plays(RuleSet(), 4, 0, table, [4, 4, 4, 4], filler + log) == {}
    # one play into the new packet: only that one counts
    recent = [*filler, _creep(3, "8C"), *log]
    assert lacks_from_plays(RuleSet(), 4, 0, table, [4, 3, 4, 4], recent) == {1: {10}}


def test_the_tables_faced_are_found_by_undoing_the_plays():
    plays = [LogEntry(0, "5H", "capture", ("5C",)), _creep(1, "2D")]
    assert faced_tables(["9S", "2D"], plays) == [["9S", "5C"], ["9S"]]
    assert faced_tables(["9S"], [_creep(1, "2D")]) is None  # the crept card is not there


@pytest.mark.parametrize(
    "players,rules",
    [
        (2, RuleSet()),
        (3, RuleSet(strict_capture=True)),
        (4, RuleSet(four_card_deal=True, strict_capture=True)),
        (4, RuleSet(partnership=True)),
        (5, RuleSet(picture_pairs=True)),
        (6, RuleSet(strict_capture=True, picture_pairs=True)),
        (2, RuleSet(single_pack=True, strict_capture=True)),
    ],
)
def test_every_proven_gap_is_true_of_the_real_hand(players, rules):
    """At every turn of random deals, for every seat: no seat holds a value the engine
    says it lacks, and the inference has something to say in a whole deal."""
    rng = random.Random(f"lacks:{players}")
    found = 0
    for _ in range(2):
        deal = random_deal(rules, players, rng)
        while not deal.is_over:
            for seat in range(players):
                for other, values in proven_lacks(deal.information_set(seat)).items():
                    assert other != seat
                    assert not {hand_value(c) for c in deal.hands[other]} & values
                    found += 1
            move = rng.choice(deal.legal_moves())
            deal.apply(move.card, move.take)
    assert found
