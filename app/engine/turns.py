"""Dealing and turn order: who gets which cards, and who plays next.

Pure functions of seat counts and hand sizes (R1.3, R2.1-R2.3, R2.5, V7),
and of which pictures leave the table before a packet (R2.4, R2.5, V9),
used by ``Deal`` to run a deal and by the bots to look ahead without one:
who moves after a play and with how many cards (``turn_after_play``), who
leads a packet, which plays were made with the hands now held, and who
receives the end award.  A bot asks here instead of counting cards itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card
from .moves import PICTURES
from .rules import RuleSet

PACKET_BATCH = 2
"""Later packets give 4 cards a player as 2+2 (R2.5)."""
PACKET_SIZE = 2 * PACKET_BATCH


def packet_order(players: int, dealer: int) -> list[int]:
    """R2.1, R2.3: seats in dealing order, starting left of the dealer (the leader)."""
    return [(dealer + 1 + i) % players for i in range(players)]


def packet_leader(players: int, dealer: int) -> int:
    """R2.1: the seat left of the dealer, who leads the opening and every packet."""
    return (dealer + 1) % players


def deal_opening(
    pack: Sequence[Card],
    players: int,
    dealer: int,
    counts: tuple[tuple[int, ...], int],
) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """R2.2, R2.3: (hands, table, stock) of a pack dealt top first.

    ``counts`` is (hand batches, table cards) of the rule set
    (``RuleSet.opening_counts``): the first batch to each seat from the
    dealer's left, then the table, then the other batches the same way.
    """
    batches, table_n = counts
    cards = list(pack)
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = packet_order(players, dealer)
    pos = 0
    for i, n in enumerate(batches):
        for seat in order:
            hands[seat].extend(cards[pos : pos + n])
            pos += n
        if i == 0:
            table = cards[pos : pos + table_n]
            pos += table_n
    return hands, table, cards[pos:]


def next_holder(hand_counts: Sequence[int], seat: int) -> int | None:
    """The next seat clockwise after ``seat`` that still holds cards (R1.3; V7 skips)."""
    players = len(hand_counts)
    for i in range(1, players + 1):
        nxt = (seat + i) % players
        if hand_counts[nxt]:
            return nxt
    return None


def deal_packet(stock: Sequence[Card], players: int, dealer: int) -> tuple[list[list[Card]], int]:
    """R2.5 (V7): the cards each seat gets from the top of ``stock``, and how many are used.

    A full packet is 2+2 to each from the dealer's left; a shorter rest of
    the stock (V7 only) goes one card at a time, clockwise from the same seat.
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = packet_order(players, dealer)
    pos = 0
    if len(stock) >= PACKET_SIZE * players:
        for _ in range(PACKET_SIZE // PACKET_BATCH):
            for seat in order:
                hands[seat].extend(stock[pos : pos + PACKET_BATCH])
                pos += PACKET_BATCH
    else:
        while pos < len(stock):
            hands[order[pos % players]].append(stock[pos])
            pos += 1
    return hands, pos


def next_turn(
    players: int, dealer: int, hand_counts: Sequence[int], seat: int, stock_count: int
) -> tuple[int | None, int, bool]:
    """Who moves after ``seat`` has played, given the hand sizes after that play.

    Returns (next seat or None when the deal ends, that seat's hand size, whether a
    new packet is dealt first).  V7's short packet deals one card at a time, so
    the leader's size is then ceil(stock / players).
    """
    nxt = next_holder(hand_counts, seat)
    if nxt is not None:
        return nxt, hand_counts[nxt], False
    if not stock_count:
        return None, 0, False
    leader = packet_leader(players, dealer)
    if stock_count >= PACKET_SIZE * players:
        return leader, PACKET_SIZE, True
    return leader, -(-stock_count // players), True


class NextTurn(NamedTuple):
    """Who moves after a play, and in what position (``turn_after_play``)."""

    seat: int | None
    """The next seat to move; None when that play ends the deal (R5)."""
    hand_size: int
    """How many cards that seat will hold when it moves (after a packet, its new hand)."""
    new_packet: bool
    """Whether a packet is dealt first (R2.5): the pictures are cleaned off the table."""


def turn_after_play(
    players: int, dealer: int, hand_counts: Sequence[int], seat: int, stock_count: int
) -> NextTurn:
    """Who moves once ``seat`` has played one card, from the hand sizes *before* that play.

    The play takes one card from ``seat``'s hand; then the next holder clockwise
    moves (R1.3, V7 skips empty hands), or with every hand empty a packet is
    dealt and the leader moves (R2.5), or the deal ends (R5).
    """
    after = list(hand_counts)
    after[seat] -= 1
    return NextTurn(*next_turn(players, dealer, after, seat, stock_count))


def plays_with_current_hands(rules: RuleSet, players: int, plays: int, held: int) -> int:
    """How many of a deal's last ``plays`` were made by hands as they are now (``held``
    cards in all).

    Every card held now was held at each play since its packet came, and a
    packet comes only when every hand is empty (R2.5); so these are the plays
    since the latest deal: the opening deal (R2.2, V2, V7), then full packets
    of 4 a player and (V7) a short last one.  A position that did not start
    from a full opening (a scenario) is clamped to 0..plays.
    """
    batches, _ = rules.opening_counts(players)
    opening = sum(batches) * players
    dealt = plays + held
    if dealt <= opening:
        size = opening
    else:
        rest = (dealt - opening) % (PACKET_SIZE * players)
        size = rest or PACKET_SIZE * players
    return min(plays, max(0, size - held))


def award_seat(last_capturer: int | None, last_player: int) -> int:
    """R5.1, R5.3: who receives the table rest and the set-aside spades at the end:
    the last player who captured, or the one who played last when nobody did."""
    return last_capturer if last_capturer is not None else last_player


def preceding(seat: int, players: int) -> int:
    """R1.3: the preceding player, seat - 1 mod n: who concedes a sweep (R4.2)."""
    return (seat - 1) % players


def set_aside(table: Sequence[Card], rules: RuleSet) -> tuple[list[Card], list[Card], list[Card]]:
    """R2.4 / R2.5: (table kept, spade pictures set aside, other pictures set aside).

    Under V9 pictures are never set aside: the table is kept whole.
    """
    if rules.picture_pairs or not any(c in PICTURES for c in table):
        return list(table), [], []
    keep: list[Card] = []
    spades: list[Card] = []
    other: list[Card] = []
    for card in table:
        if card not in PICTURES:
            keep.append(card)
        elif card[-1] == "S":
            spades.append(card)
        else:
            other.append(card)
    return keep, spades, other
