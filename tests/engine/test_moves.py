"""What a move is worth and how a sweep is marked (R4.2-R4.4, R6.1, V3): app/engine/moves.py."""

from __future__ import annotations

from app.engine.moves import (
    DOUBLE_SWEEP,
    SWEEP,
    SWEEP_CREDIT,
    move_points,
    sweep_kind,
    sweep_markers_of,
)


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
