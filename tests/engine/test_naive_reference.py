"""The engine against bench/naive_engine.py, the naive reference its speed is quoted against.

The reference lists legal moves by brute force (every subset of the table
tried as the take, R3.3 read literally) and keeps its own state and scores.
Driving both with the same pack and the same moves, every position must
offer exactly the same distinct legal moves, and the deal must end with the
same piles and scores.  So the benchmark ratio (bench/simulate_ratio.py)
compares two programs that do the same work, and the engine's fast paths
are cross-checked by a second, independent reading of the rules.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from app.engine.cards import pack
from app.engine.deal import Deal
from app.engine.rules import RuleSet

NAIVE_PATH = Path(__file__).resolve().parents[2] / "bench" / "naive_engine.py"


def load_naive() -> ModuleType:
    spec = importlib.util.spec_from_file_location("naive_engine", NAIVE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("naive_engine", module)
    spec.loader.exec_module(module)
    return module


naive = load_naive()


def play_both(players: int, rng: random.Random) -> int:
    """One deal played by both engines with the same random moves; the positions compared."""
    cards = pack(2)
    rng.shuffle(cards)
    dealer = rng.randrange(players)
    deal = Deal.from_pack(RuleSet(), players, dealer, cards)
    other = naive.NaiveDeal(players, dealer, cards)
    positions = 0
    while deal.to_move is not None:
        assert other.to_move == deal.to_move
        seat = deal.to_move
        assert Counter(other.hands[seat]) == Counter(deal.hands[seat])
        assert Counter(other.table) == Counter(deal.table)
        expected = {(m.card, m.take) for m in deal.legal_moves()}
        got = naive.legal_moves(other.hands[seat], other.table)
        assert len(got) == len(set(got)), "the reference lists a move twice"
        assert set(got) == expected, (other.hands[seat], other.table)
        card, take = sorted(expected)[rng.randrange(len(expected))]
        deal.apply(card, take)
        other.play(card, take)
        positions += 1
    assert other.to_move is None
    assert [Counter(p) for p in other.piles] == [Counter(p) for p in deal.piles]
    assert other.scores == deal.totals()
    other.check_invariants()
    return positions


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_naive_reference_offers_the_engines_legal_moves(players: int) -> None:
    rng = random.Random(players)
    positions = sum(play_both(players, rng) for _ in range(12))
    assert positions >= 12 * 96


def test_the_naive_reference_finds_a_capture_with_a_choice() -> None:
    """E6 (R3.3): table 2 3 4 5 8 10, an ace played: three takes, the player's choice."""
    table = ["2H", "3H", "4H", "5H", "8H", "10H"]
    moves = naive.legal_moves(["AD"], table)
    assert {take for _, take in moves} == {
        ("2H", "4H", "8H"),
        ("2H", "3H", "4H", "5H"),
        ("4H", "10H"),
    }
    assert len(moves) == 3


def test_the_naive_reference_forces_a_sweep() -> None:
    """E1 (R4.1): table 2 7, hand 9 and 4: only the 9 may be played, taking both."""
    assert naive.legal_moves(["4C", "9D"], ["2H", "7S"]) == [("9D", ("2H", "7S"))]
