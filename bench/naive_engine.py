"""The naive reference engine: random Krypkasino deals, written plainly from RULES.md.

    .venv/bin/python bench/naive_engine.py --players 4 --deals 200

The yardstick the engine's speed is quoted against (bench/simulate_ratio.py,
docs/benchmarks.md): what a straightforward, unoptimized program does with
the same job as ``krypkasino simulate`` -- deal a uniformly shuffled double
pack (standard rules, 2-6 players), play uniformly random legal moves to the
end of the deal, check that every card is conserved (R1.1) and that the
scores add up to 42 (R6.3).

Nothing here imports the app, and nothing is cached.  Every turn, for every
card in hand, every subset of the table is tried as the take, R3.3 read
literally: what it leaves behind holds no group (R3.2, all subsets of the
rest are summed) and it splits into groups (by recursion); the forced sweep
(R4.1) is read off that list.  A card is its code string, its value is
found by parsing the code.  Tables of random play are small (rarely over 8
cards), so brute force stays affordable; it would not be on a crowded
25-card table.

Calibration (issue 14): the reference was chosen among plain variants so
that ``krypkasino simulate`` as it was before the second performance round
(commit df8e1cf) measured about 11 times its speed, as the issue's filer
found; in the calibration run it measured 12.1 times (five interleaved
nice'd runs, medians of CPU time, 2-core shared VM).  It must never be made
slower, or the engine's ratio would flatter it.

tests/engine/test_naive_reference.py checks that these legal moves are
exactly the engine's over many random positions, so the ratio compares two
programs that do the same thing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
PICTURES = ["J", "Q", "K"]
OPENING = {2: (6, 4), 3: (5, 5), 4: (5, 4), 5: (4, 4), 6: (5, 2)}
"""R2.2: hand cards, table cards of the opening deal by number of players."""
BATCHES = {6: (3, 3), 5: (3, 2), 4: (2, 2)}
"""R2.2: a hand is dealt in two batches."""
PACK_POINTS = 42
"""R6.1: the card points of a double pack."""


def rank(card: str) -> str:
    return card[:-1]


def table_value(card: str) -> int:
    """R1.4: numerals as printed, J 11, Q 12, K 13, an ace on the table 1."""
    return RANKS.index(rank(card)) + 1


def hand_value(card: str) -> int:
    """R1.4: an ace played from hand is 14."""
    value = table_value(card)
    return 14 if value == 1 else value


def card_points(card: str) -> int:
    """R6.1: 10 of diamonds 3, 2 and ace of spades 2, other spades and aces 1."""
    if card == "10D":
        return 3
    if card in ("2S", "AS"):
        return 2
    if card.endswith("S") or rank(card) == "A":
        return 1
    return 0


def card_order(card: str) -> tuple[int, int]:
    """Canonical order: by rank A..K, then suits S H D C."""
    return (RANKS.index(rank(card)), SUITS.index(card[-1]))


def new_pack() -> list[str]:
    """R1.1: two packs, every rank and suit twice."""
    return [r + s for r in RANKS for s in SUITS] * 2


# ---------------------------------------------------------------- legal moves


def has_group(values: list[int], value: int) -> bool:
    """R3.2: some non-empty subset of the values adds up to ``value``."""
    if sum(values) < value:
        return False
    for size in range(1, len(values) + 1):
        for chosen in combinations(values, size):
            if sum(chosen) == value:
                return True
    return False


def splits(values: list[int], value: int) -> bool:
    """Can the values be split into groups of ``value``?  The first one is in some group."""
    if not values:
        return True
    if sum(values) % value:
        return False
    first, rest = values[0], values[1:]
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in chosen) == value:
                left = [rest[i] for i in range(len(rest)) if i not in chosen]
                if splits(left, value):
                    return True
    return False


def maximal_takes(table: list[str], value: int) -> list[tuple[int, ...]]:
    """R3.3 read literally: the table positions a card may take.

    A take splits into groups of the value, and what it leaves on the table
    holds no group any more (the collection of groups is maximal).
    """
    values = [table_value(card) for card in table]
    takes = []
    for size in range(1, len(table) + 1):
        for take in combinations(range(len(table)), size):
            taken = [values[i] for i in take]
            left = [values[i] for i in range(len(table)) if i not in take]
            if not has_group(left, value) and splits(taken, value):
                takes.append(take)
    return takes


NaiveMove = tuple[str, tuple[str, ...]]
"""A move: the card played and the table cards it takes (empty: it creeps)."""


def legal_moves(hand: list[str], table: list[str]) -> list[NaiveMove]:
    """Every distinct legal move (card, taken codes in canonical order): R3, R4.1, R4.5."""
    moves: list[NaiveMove] = []
    sweeps: list[NaiveMove] = []
    for card in hand:
        takes = maximal_takes(table, hand_value(card))
        if not takes:
            moves.append((card, ()))  # R3.4: it creeps
        for take in takes:
            codes = tuple(sorted((table[i] for i in take), key=card_order))
            moves.append((card, codes))
            if len(take) == len(table):
                sweeps.append((card, codes))
    if sweeps:  # R4.1: a sweeping card must be played, and it takes the whole table
        moves = sweeps
    distinct: list[NaiveMove] = []
    for move in moves:  # twins in hand and on the table give the same move twice
        if move not in distinct:
            distinct.append(move)
    return distinct


# ---------------------------------------------------------------------- a deal


class NaiveDeal:
    """The state of one deal: hands, table, stock, capture piles and scores."""

    def __init__(self, players: int, dealer: int, pack: list[str]) -> None:
        self.players = players
        self.dealer = dealer
        self.pack = list(pack)
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.set_aside_spades: list[str] = []
        self.set_aside_other: list[str] = []
        self.last_capturer: int | None = None
        self.last_player = dealer
        hand_n, table_n = OPENING[players]
        first, second = BATCHES[hand_n]
        stock = list(pack)
        for seat in self.dealing_order():  # R2.3
            for _ in range(first):
                self.hands[seat].append(stock.pop(0))
        self.table = [stock.pop(0) for _ in range(table_n)]
        for seat in self.dealing_order():
            for _ in range(second):
                self.hands[seat].append(stock.pop(0))
        self.stock = stock
        self.set_aside_pictures()  # R2.4
        self.to_move: int | None = (dealer + 1) % players

    def dealing_order(self) -> list[int]:
        """R2.1, R2.3: clockwise from the dealer's left."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def set_aside_pictures(self) -> None:
        """R2.4, R2.5: J, Q, K leave the table; spade pictures on their own pile."""
        for card in list(self.table):
            if rank(card) in PICTURES:
                self.table.remove(card)
                if card.endswith("S"):
                    self.set_aside_spades.append(card)
                else:
                    self.set_aside_other.append(card)

    def play(self, card: str, take: tuple[str, ...]) -> None:
        seat = self.to_move
        assert seat is not None
        self.hands[seat].remove(card)
        if not take:
            self.table.append(card)  # R3.4
        else:
            sweep = len(take) == len(self.table)
            for taken in take:
                self.table.remove(taken)
            self.piles[seat].append(card)
            self.piles[seat].extend(take)
            self.scores[seat] += card_points(card) + sum(card_points(c) for c in take)
            self.last_capturer = seat
            if sweep:  # R4.2, R4.3
                double = len(take) == 1 and take[0] == card and rank(card) != "A"
                credit = 10 if double else 5
                self.scores[seat] += credit
                self.scores[(seat - 1) % self.players] -= credit
        self.last_player = seat
        if any(self.hands):
            self.to_move = (seat + 1) % self.players
        elif self.stock:
            self.set_aside_pictures()  # R2.5
            for _ in range(2):
                for player in self.dealing_order():
                    for _ in range(2):
                        self.hands[player].append(self.stock.pop(0))
            self.to_move = self.dealing_order()[0]
        else:
            self.finish()

    def finish(self) -> None:
        """R5.1, R5.3: the last capturer (else the last player) takes the rest."""
        seat = self.last_capturer if self.last_capturer is not None else self.last_player
        rest = self.table + self.set_aside_spades
        self.piles[seat].extend(rest)
        self.scores[seat] += sum(card_points(c) for c in rest)
        self.table = []
        self.set_aside_spades = []
        self.to_move = None

    def check_invariants(self) -> None:
        """R1.1: every card is still there; R6.3: the scores add up to 42."""
        end = [c for pile in self.piles for c in pile] + self.set_aside_other + self.table
        end += [c for hand in self.hands for c in hand] + self.stock
        if sorted(end) != sorted(self.pack):
            raise AssertionError("cards not conserved")
        if sum(self.scores) != PACK_POINTS:
            raise AssertionError(f"scores add up to {sum(self.scores)}")


def play_random_deal(players: int, rng: random.Random) -> int:
    """Deal a shuffled pack, play uniformly random legal moves, check; the move count."""
    pack = new_pack()
    rng.shuffle(pack)
    deal = NaiveDeal(players, rng.randrange(players), pack)
    moves = 0
    while deal.to_move is not None:
        legal = legal_moves(deal.hands[deal.to_move], deal.table)
        card, take = rng.choice(legal)
        deal.play(card, take)
        moves += 1
    deal.check_invariants()
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=sorted(OPENING))
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    moves = sum(play_random_deal(args.players, rng) for _ in range(args.deals))
    seconds = time.perf_counter() - start
    print(
        f"{args.deals} deals, {moves} moves, {args.players} players: all cards conserved, "
        f"scores add up; {args.deals / seconds:.0f} deals/s (naive reference)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
