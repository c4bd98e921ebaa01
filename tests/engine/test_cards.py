"""Cards, codes, values and card points (RULES.md R1, R6.1, V3)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import cards
from app.engine.cards import (
    ALL_CODES,
    card_points,
    count_excess,
    hand_value,
    is_card,
    is_picture,
    pack,
    rank,
    sort_key,
    sorted_cards,
    suit,
    table_value,
)


def test_there_are_52_distinct_codes_rank_then_suit():
    """R1.2: rank A 2..10 J Q K followed by suit S H D C."""
    assert len(ALL_CODES) == len(set(ALL_CODES)) == 52
    assert ALL_CODES[:4] == ("AS", "AH", "AD", "AC")
    assert ALL_CODES[-1] == "KC"
    assert "10D" in ALL_CODES


@pytest.mark.parametrize("code", ["AS", "10D", "QH", "2C", "KS"])
def test_valid_codes_are_cards(code):
    """R1.2: the codes used everywhere outside the UI."""
    assert is_card(code)


@pytest.mark.parametrize("code", ["1S", "AX", "10", "T", "as", "", "11H", "JOKER", 5, None, ["AS"]])
def test_anything_else_is_not_a_card(code):
    """R1.1, R1.2: no jokers, no other spellings."""
    assert not is_card(code)


def test_rank_and_suit_split_the_code():
    assert (rank("10D"), suit("10D")) == ("10", "D")
    assert (rank("AS"), suit("AS")) == ("A", "S")


def test_numerals_count_as_printed_and_pictures_eleven_to_thirteen():
    """R1.4: numerals as printed, J 11, Q 12, K 13, on the table and from hand."""
    for r, v in [("2", 2), ("7", 7), ("10", 10), ("J", 11), ("Q", 12), ("K", 13)]:
        for s in "SHDC":
            assert table_value(r + s) == v
            assert hand_value(r + s) == v


def test_ace_is_fourteen_from_hand_and_one_on_the_table():
    """R1.4: an ace is worth 14 played from hand and 1 lying on the table."""
    for s in "SHDC":
        assert hand_value("A" + s) == 14
        assert table_value("A" + s) == 1


def test_pictures_are_jacks_queens_and_kings():
    """R2.4: J, Q, K are the pictures that are set aside."""
    assert {c for c in ALL_CODES if is_picture(c)} == {r + s for r in "JQK" for s in "SHDC"}


def test_card_points_of_the_standard_rules():
    """R6.1: 10D 3, 2S 2, AS 2, other spades 1, other aces 1, the rest 0."""
    assert card_points("10D") == 3
    assert card_points("2S") == 2
    assert card_points("AS") == 2
    assert card_points("KS") == card_points("3S") == card_points("10S") == 1
    assert card_points("AH") == card_points("AD") == card_points("AC") == 1
    assert card_points("10H") == card_points("2H") == card_points("KD") == 0


def test_nordic_ten_of_diamonds_scores_nothing():
    """V3: the 10 of diamonds scores 0; spades and aces as before."""
    assert card_points("10D", nordic=True) == 0
    assert card_points("2S", nordic=True) == 2
    assert card_points("AC", nordic=True) == 1


def test_a_double_pack_holds_42_points_or_36_nordic():
    """R6.1, V3: both copies count: 42 card points, 36 under Nordic rules."""
    assert sum(card_points(c) for c in pack(2)) == 42
    assert sum(card_points(c, nordic=True) for c in pack(2)) == 36


def test_a_single_pack_holds_21_points():
    """V2: one 52-card pack holds 21 card points."""
    assert sum(card_points(c) for c in pack(1)) == 21


def test_a_pack_holds_every_code_twice_or_once():
    """R1.1 (two packs, twins), V2 (one pack)."""
    assert Counter(pack()) == Counter({c: 2 for c in ALL_CODES})
    assert Counter(pack(1)) == Counter({c: 1 for c in ALL_CODES})
    assert len(pack()) == 104


def test_sorted_cards_use_rank_then_suit_order():
    """FORMAT.md: lists sorted by rank A..K, suits S H D C within a rank."""
    assert sorted_cards(["KC", "2H", "10D", "AS", "AH", "10S", "JD"]) == [
        "AS",
        "AH",
        "2H",
        "10S",
        "10D",
        "JD",
        "KC",
    ]
    assert sort_key("AS") < sort_key("AH") < sort_key("2S") < sort_key("KC")


def test_count_excess_names_codes_held_more_often_than_the_packs():
    assert count_excess(["AS", "AS", "AS", "2H"], copies=2) == ["AS"]
    assert count_excess(["AS", "AS"], copies=1) == ["AS"]
    assert count_excess(pack(2), copies=2) == []


def test_the_module_exposes_no_mutable_tables_by_accident():
    """Card lookups are pure functions of the code (tables built at import)."""
    assert isinstance(cards.ALL_CODES, tuple)
    assert isinstance(cards.PICTURES, frozenset)
