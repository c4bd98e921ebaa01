"""The worked examples E1..E8 of RULES.md R8, each as its own test.

Every example is set up card by card with ``Deal.from_position`` and checked
for the legal moves, the kind of each play and the scores it produces.
"""

from __future__ import annotations

import pytest

from app.engine.deal import CAPTURE, CREEP, DOUBLE_SWEEP, SWEEP, Deal, Move
from app.engine.errors import MustCapture, MustSweep
from app.engine.rules import RuleSet

STANDARD = RuleSet()


def legal_set(deal: Deal) -> set[tuple[str, tuple[str, ...]]]:
    return {(m.card, tuple(sorted(m.take))) for m in deal.legal_moves()}


def move(card: str, *take: str) -> tuple[str, tuple[str, ...]]:
    return card, tuple(sorted(take))


def test_e1_forced_sweep_scores_six_and_minus_five():
    """E1 (R4.1, R4.2): table 2H 7S, B holds 9D and 4C: B must sweep with 9D.

    B scores 1 (the 7 of spades) + 5 = 6; A, the preceding player, gets -5.
    """
    deal = Deal.from_position(STANDARD, 2, 0, [["4H"], ["9D", "4C"]], ["2H", "7S"])
    assert deal.to_move == 1
    assert legal_set(deal) == {move("9D", "2H", "7S")}
    with pytest.raises(MustSweep):  # 4C would creep, but a sweep is forced
        deal.check("4C")
    result = deal.apply("9D", ["2H", "7S"])
    assert result.kind == SWEEP
    assert result.conceded_by == 0
    assert deal.scores[1].total == 6
    assert deal.scores[1].card_points == 1
    assert deal.scores[0].total == -5
    assert deal.scores[0].sweeps_conceded == 1


def test_e2_lone_card_taken_by_its_twin_is_a_double_sweep():
    """E2 (R4.3): a lone 3D taken by the other 3D scores +10 / -10."""
    deal = Deal.from_position(STANDARD, 2, 0, [["5C"], ["3D"]], ["3D"])
    assert legal_set(deal) == {move("3D", "3D")}
    result = deal.apply("3D", ["3D"])
    assert result.kind == DOUBLE_SWEEP
    assert deal.scores[1].double_sweeps == 1
    assert deal.scores[1].sweeps == 0  # counted as a double only (R6.2)
    assert deal.scores[1].total == 10
    assert deal.scores[0].double_sweeps_conceded == 1
    assert deal.scores[0].total == -10


def test_e3_lone_ace_cannot_be_taken_by_the_other_ace():
    """E3 (R1.4): an ace from hand is 14, a table ace is 1, so A takes no lone A."""
    deal = Deal.from_position(STANDARD, 2, 0, [["5C"], ["AD"]], ["AD"])
    assert legal_set(deal) == {move("AD")}
    result = deal.apply("AD")
    assert result.kind == CREEP
    assert sorted(deal.table) == ["AD", "AD"]
    assert all(s.total == 0 for s in deal.scores)


def test_e4_six_may_creep_but_the_eight_must_take_the_eight():
    """E4 (R3.3, R3.5): table 8 9 J, hand 8 and 6: the 6 creeps, the 8 takes the 8."""
    deal = Deal.from_position(
        STANDARD, 2, 0, [["2C"], ["6H", "8S"]], ["8H", "9C", "JD"], opening=False
    )  # the J lies on the table (it crept)
    assert legal_set(deal) == {move("6H"), move("8S", "8H")}
    with pytest.raises(MustCapture):
        deal.check("8S")
    assert deal.check("6H") == (1, CREEP)
    result = deal.apply("8S", ["8H"])
    assert result.kind == CAPTURE
    assert sorted(deal.table) == ["9C", "JD"]


def test_e5_an_eight_takes_eight_ace_seven_and_two_six():
    """E5 (R3.3): table A 2 6 7 8 9, an 8 takes 8, A+7 and 2+6: five table cards."""
    table = ["AH", "2H", "6H", "7H", "8H", "9H"]
    deal = Deal.from_position(STANDARD, 2, 0, [["3C"], ["8C"]], table)
    assert legal_set(deal) == {move("8C", "8H", "AH", "7H", "2H", "6H")}
    result = deal.apply("8C", ["8H", "AH", "7H", "2H", "6H"])
    assert result.kind == CAPTURE
    assert deal.table == ["9H"]


def test_e6_an_ace_has_exactly_three_legal_captures():
    """E6 (R3.3): table 2 3 4 5 8 10, an ace (14): {10,4}, {8,4,2} or {5,4,3,2}."""
    table = ["2H", "3H", "4H", "5H", "8H", "10H"]
    deal = Deal.from_position(STANDARD, 2, 0, [["KC"], ["AC"]], table)
    assert legal_set(deal) == {
        move("AC", "10H", "4H"),
        move("AC", "8H", "4H", "2H"),
        move("AC", "5H", "4H", "3H", "2H"),
    }
    assert len(deal.legal_moves()) == 3


def test_e7_packet_cleaning_forces_a_sweep_and_the_dealer_concedes():
    """E7 (R2.5, R4.1, R4.2): the dealer's last 4 creeps onto 6 10 J K.

    Before the next packet J and K are set aside (K of spades on its own
    pile), leaving 6 10 4; the leader, dealt a 10, must sweep 10 and 6+4,
    and the dealer, who played last, gets -5.
    """
    deal = Deal.from_position(
        STANDARD,
        2,
        0,
        [["4D"], []],
        ["6H", "10C", "JD", "KS"],
        stock=["10S", "2C", "3C", "5C", "7C", "9C", "AH", "8C"],
        to_move=0,
        opening=False,
    )
    creep = deal.apply("4D")
    assert creep.kind == CREEP and creep.packet_dealt
    assert sorted(deal.table) == ["10C", "4D", "6H"]
    assert deal.set_aside_spades == ["KS"]
    assert deal.set_aside_other == ["JD"]
    assert deal.to_move == 1  # the leader, left of the dealer
    assert sorted(deal.hands[1]) == ["10S", "2C", "7C", "9C"]
    assert deal.legal_moves() == [Move("10S", ("4D", "6H", "10C"))]
    result = deal.apply("10S", ["10C", "6H", "4D"])
    assert result.kind == SWEEP
    assert result.conceded_by == 0
    assert deal.scores[0].total == -5
    assert deal.scores[1].total == 1 + 5  # the 10 of spades plus the sweep


def test_e8_twin_sweeping_with_another_card_is_an_ordinary_sweep():
    """E8 (R4.3): 3D + 3S on the table taken by the other 3D: a sweep, not a double."""
    deal = Deal.from_position(STANDARD, 2, 0, [["7C"], ["3D"]], ["3D", "3S"])
    assert legal_set(deal) == {move("3D", "3D", "3S")}
    result = deal.apply("3D", ["3D", "3S"])
    assert result.kind == SWEEP
    assert deal.scores[1].sweeps == 1 and deal.scores[1].double_sweeps == 0
    assert deal.scores[1].total == 1 + 5
    assert deal.scores[0].total == -5
