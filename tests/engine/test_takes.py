"""What a hand value may take under the rule set (R3.2, R4.1, V9): app/engine/takes.py."""

from __future__ import annotations

from app.engine.rules import RuleSet
from app.engine.takes import capturing_values, sweeping_values

STANDARD = RuleSet()
PAIRS = RuleSet(picture_pairs=True)


def test_sweeping_and_capturing_values():
    assert sweeping_values([], STANDARD) == ()
    assert sweeping_values(["2C", "3H", "5D"], STANDARD) == (5, 10)
    assert sweeping_values(["AH", "AD"], STANDARD) == (2,)  # table aces count 1 (R1.4)
    assert sweeping_values(["KH", "AC"], STANDARD) == (14,)  # only an ace from hand
    assert sweeping_values(["9C", "8D"], STANDARD) == ()
    assert capturing_values(["3C", "7H"], STANDARD) == (3, 7, 10)
    assert capturing_values(["AH"], STANDARD) == ()  # a lone table ace cannot be taken (R1.4)


def test_picture_pairs_change_what_sweeps_and_captures():
    """V9: a picture pairs only with its own rank; no sum holds a picture."""
    assert sweeping_values(["KH", "AC"], PAIRS) == ()  # the ace cannot take K + A
    assert sweeping_values(["QH", "QD"], PAIRS) == (12,)
    assert 11 not in sweeping_values(["4C", "7H"], PAIRS)  # a jack never takes 4+7
    assert capturing_values(["3C", "JD"], PAIRS) == (3, 11)
    assert capturing_values(["3C", "JD"], STANDARD) == (3, 11, 14)  # the ace takes J+3
