"""Turn order and packets (R1.3, R2.1, R2.5, V7): app/engine/turns.py."""

from __future__ import annotations

from app.engine.rules import RuleSet
from app.engine.turns import (
    deal_packet,
    next_holder,
    next_turn,
    packet_order,
    preceding,
    set_aside,
)


def test_next_turn():
    # 4 players, seat 1 just played and holds nothing more; seat 2 holds cards
    assert next_turn(4, 0, [2, 0, 2, 2], 1, 40) == (2, 2, False)
    # everyone is empty: a new packet of 4 each, led by the dealer's left (R2.5)
    assert next_turn(4, 2, [0, 0, 0, 0], 2, 32) == (3, 4, True)
    # V7 short packet of 4 cards for 3 players: the leader gets 2
    assert next_turn(3, 0, [0, 0, 0], 0, 4) == (1, 2, True)
    # the last card of the deal
    assert next_turn(3, 0, [0, 0, 0], 0, 0) == (None, 0, False)
    # V7 skips empty hands
    assert next_turn(3, 0, [1, 0, 1], 0, 0) == (2, 1, False)


def test_the_preceding_player_is_the_seat_before():
    """R1.3: seat - 1 mod n (who concedes a sweep, R4.2)."""
    assert [preceding(s, 4) for s in range(4)] == [3, 0, 1, 2]


def test_a_packet_is_dealt_two_and_two_from_the_dealers_left():
    """R2.5: two to each clockwise from the dealer's left, then two more each."""
    stock = [f"{n}{s}" for s in "SH" for n in range(2, 10)]  # 16 cards, top first
    hands, used = deal_packet(stock, 2, 1)
    assert used == 8
    assert hands == [stock[0:2] + stock[4:6], stock[2:4] + stock[6:8]]
    assert packet_order(3, 2) == [0, 1, 2]


def test_a_short_packet_goes_one_card_at_a_time():
    """V7: the rest of the stock, one card each clockwise from the dealer's left."""
    hands, used = deal_packet(["2S", "3S", "4S", "5S"], 3, 0)
    assert used == 4
    assert hands == [["4S"], ["2S", "5S"], ["3S"]]
    assert next_holder([0, 0, 1], 0) == 2 and next_holder([0, 0, 0], 1) is None


def test_pictures_are_set_aside_except_under_picture_pairs():
    """R2.4 / R2.5; V9 keeps them on the table."""
    assert set_aside(["JS", "4H", "KD"], RuleSet()) == (["4H"], ["JS"], ["KD"])
    assert set_aside(["JS", "4H", "KD"], RuleSet(picture_pairs=True)) == (
        ["JS", "4H", "KD"],
        [],
        [],
    )
