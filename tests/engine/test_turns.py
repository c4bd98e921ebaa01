"""Turn order and packets (R1.3, R2.1, R2.5, V7): app/engine/turns.py."""

from __future__ import annotations

import random

import pytest

from app.engine.rules import RuleSet
from app.engine.turns import (
    award_seat,
    deal_packet,
    next_holder,
    next_turn,
    packet_leader,
    packet_order,
    plays_with_current_hands,
    preceding,
    set_aside,
    turn_after_play,
)
from app.simulation import random_deal

SETUPS = [
    (2, RuleSet()),
    (3, RuleSet(four_card_deal=True)),
    (4, RuleSet(four_card_deal=True)),
    (4, RuleSet(partnership=True)),
    (5, RuleSet()),
    (6, RuleSet(picture_pairs=True)),
    (2, RuleSet(single_pack=True)),
]
"""Player counts with their opening and packet sizes (R2.2, V2, V7) and short packets."""


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


def test_the_leader_sits_left_of_the_dealer():
    """R2.1: every packet is led by the dealer's left."""
    assert [packet_leader(4, d) for d in range(4)] == [1, 2, 3, 0]
    assert all(packet_leader(n, d) == packet_order(n, d)[0] for n in range(2, 7) for d in range(n))


def test_award_goes_to_the_last_capturer_else_the_last_player():
    """R5.1, R5.3."""
    assert award_seat(2, 0) == 2
    assert award_seat(0, 3) == 0
    assert award_seat(None, 3) == 3


@pytest.mark.parametrize("players,rules", SETUPS)
def test_the_turn_after_a_play_is_the_one_the_deal_gives(players, rules):
    """At every turn of random deals: who moves next, with how many cards, and whether a
    packet came first, as the deal itself then shows (R1.3, R2.5, R5, V7 skips)."""
    rng = random.Random(f"turn:{players}")
    for _ in range(3):
        deal = random_deal(rules, players, rng)
        while not deal.is_over:
            seat = deal.to_move
            before = [len(h) for h in deal.hands]
            turn = turn_after_play(players, deal.dealer, before, seat, len(deal.stock))
            move = rng.choice(deal.legal_moves())
            result = deal.apply(move.card, move.take)
            assert turn.seat == deal.to_move
            assert turn.new_packet == result.packet_dealt
            if turn.seat is not None:
                assert turn.hand_size == len(deal.hands[turn.seat])


@pytest.mark.parametrize("players,rules", SETUPS)
def test_the_plays_with_the_current_hands_are_those_since_the_last_packet(players, rules):
    """Counted from the hand and play counts only, as a seat can count them."""
    rng = random.Random(f"packet:{players}")
    deal = random_deal(rules, players, rng)
    since = 0
    while not deal.is_over:
        held = sum(len(h) for h in deal.hands)
        assert plays_with_current_hands(rules, players, len(deal.results), held) == since
        move = rng.choice(deal.legal_moves())
        since = 0 if deal.apply(move.card, move.take).packet_dealt else since + 1


def test_plays_of_a_position_that_did_not_start_from_a_full_deal_are_clamped():
    assert plays_with_current_hands(RuleSet(), 4, 1, 19) == 1
    assert plays_with_current_hands(RuleSet(), 4, 3, 25) == 0  # more cards than dealt
    assert plays_with_current_hands(RuleSet(), 4, 2, 1) == 2  # fewer plays than the packet
