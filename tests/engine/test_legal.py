"""The legal-move generator's rule facts (R3.2, R4.1, R4.3, R4.4, V9): app/engine/legal.py."""

from __future__ import annotations

from app.engine.legal import (
    DOUBLE_SWEEP,
    SWEEP,
    SWEEP_CREDIT,
    capturing_values,
    move_points,
    set_aside,
    sweep_kind,
    sweep_markers_of,
    sweeping_values,
)
from app.engine.rules import RuleSet

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


def test_pictures_are_set_aside_except_under_picture_pairs():
    """R2.4 / R2.5; V9 keeps them on the table."""
    assert set_aside(["JS", "4H", "KD"], STANDARD) == (["4H"], ["JS"], ["KD"])
    assert set_aside(["JS", "4H", "KD"], PAIRS) == (["JS", "4H", "KD"], [], [])


def test_what_a_sweep_is_worth_and_how_it_is_marked():
    """R4.2, R4.3, R4.4: a double is a lone non-ace taken by its twin, worth 10, two markers."""
    assert sweep_kind("3D", ("3D",)) == DOUBLE_SWEEP
    assert sweep_kind("AD", ("AD",)) == SWEEP  # cannot happen (R1.4), never a double
    assert sweep_kind("3D", ("3H",)) == SWEEP
    assert sweep_kind("3D", ("AH", "2D")) == SWEEP
    assert (SWEEP_CREDIT[SWEEP], SWEEP_CREDIT[DOUBLE_SWEEP]) == (5, 10)
    assert sweep_markers_of("3D", DOUBLE_SWEEP) == ("3D", "3D")
    assert sweep_markers_of("9D", SWEEP) == ("9D",)
    assert sweep_markers_of("9D", "capture") == ()


def test_move_points_count_the_played_card_only_when_it_captures():
    """R6.1, V3."""
    assert move_points("10D", []) == 0
    assert move_points("10D", ["10H"]) == 3
    assert move_points("10D", ["10H"], nordic=True) == 0
    assert move_points("9S", ["2S", "7S"]) == 1 + 2 + 1
