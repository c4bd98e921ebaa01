"""One deal: dealing, turns, captures, sweeps, packets and the end award.

``Deal`` is the whole state of a deal and the only thing that changes it.
It is built either from a shuffled pack (``Deal.from_pack``, R2) or from a
position (``Deal.from_position``, the scenario format) and then moves are
applied one at a time.  ``check`` raises the precise error of FORMAT.md,
``apply`` checks and then changes the state, returning what happened.

Nothing here does I/O; a deal is fully determined by its opening position
and its moves, which is what persistence replays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

from . import captures
from .cards import (
    Card, card_points, count_excess, hand_value, is_card, is_picture, sort_key,
    sorted_cards, table_value,
)
from .errors import (
    DealOver, InvalidCapture, MoveError, MustCapture, MustSweep, NotInHand, NotMaximal,
    SetupError,
)
from .rules import RuleSet
from .scoring import BORDSTABBE, Score

CREEP = "creep"
CAPTURE = "capture"
SWEEP = "sweep"
DOUBLE_SWEEP = "double_sweep"

PACKET_BATCH = 2
"""Later packets give 4 cards a player as 2+2 (R2.5)."""


class Move(NamedTuple):
    """A proposed play: the card and the table cards it takes (empty: creep).

    A NamedTuple rather than a frozen dataclass: moves are made by the
    thousand in every search, and tuples are the cheapest immutable value.
    """

    card: Card
    take: tuple[Card, ...] = ()

    @classmethod
    def of(cls, card: Card, take: Iterable[Card] | None = None) -> "Move":
        """A move with its take in canonical order (unknown codes sort last)."""
        return cls(card, tuple(sorted(take or (), key=_lenient_key)))

    def to_dict(self) -> dict[str, object]:
        return {"card": self.card, "take": list(self.take)}


@dataclass(frozen=True, slots=True)
class Award:
    """The end-of-deal award (R5.1, R5.3): table rest plus set-aside spade pictures."""

    seat: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one applied move did."""

    seat: int
    card: Card
    kind: str
    """``creep``, ``capture``, ``sweep`` or ``double_sweep``."""
    taken: tuple[Card, ...]
    conceded_by: int | None = None
    """For a sweep: the preceding player who concedes it (R4.2)."""
    packet_dealt: bool = False
    """A new packet (R2.5) was dealt after this move."""
    award: Award | None = None
    """Set when this move ended the deal (R5)."""

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "card": self.card, "kind": self.kind,
                "taken": list(self.taken)}


@dataclass(slots=True)
class Opening:
    """The deal as set up, before any cleaning: what a record replays from."""

    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    to_move: int


@dataclass(slots=True)
class Deal:
    rules: RuleSet
    players: int
    dealer: int
    opening: Opening
    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    """Undealt cards, top first."""
    to_move: int | None
    last_player: int
    """Who played last: the preceding player of R4.2 (R1.3)."""
    set_aside_spades: list[Card] = field(default_factory=list)
    set_aside_other: list[Card] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=list)
    sweep_markers: list[list[Card]] = field(default_factory=list)
    """R4.4: the capturing card of every sweep, public."""
    scores: list[Score] = field(default_factory=list)
    last_capturer: int | None = None
    award: Award | None = None
    results: list[MoveResult] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    bordstabbe_seat: int | None = None
    packets_dealt: int = 0
    _counts: int | None = None
    """Cache: the table as value counts (captures.Counts); None when unknown."""
    _legal: dict[Move, str] | None = None
    """Cache: the legal moves of this position and their kinds."""

    # ------------------------------------------------------------------ setup

    @classmethod
    def from_pack(cls, rules: RuleSet, players: int, dealer: int,
                  pack: Sequence[Card]) -> "Deal":
        """Deal a shuffled pack (top first) per R2.2, R2.3 (V2, V7)."""
        rules.validate_for(players)
        expected = 52 * rules.copies
        if len(pack) != expected or count_excess(pack, rules.copies):
            raise SetupError(f"a pack for these rules holds {expected} cards, each "
                             f"{rules.copies} time(s)")
        if not 0 <= dealer < players:
            raise SetupError("the dealer must be one of the seats")
        batches, table_n = rules.opening_counts(players)
        cards = list(pack)
        pos = 0
        hands: list[list[Card]] = [[] for _ in range(players)]
        order = [(dealer + 1 + i) % players for i in range(players)]

        def batch(n: int) -> None:
            nonlocal pos
            for seat in order:
                hands[seat].extend(cards[pos:pos + n])
                pos += n

        batch(batches[0])
        table = cards[pos:pos + table_n]
        pos += table_n
        for n in batches[1:]:
            batch(n)
        return cls.from_position(rules, players, dealer, hands, table, cards[pos:])

    @classmethod
    def from_position(cls, rules: RuleSet, players: int, dealer: int,
                      hands: Sequence[Sequence[Card]], table: Sequence[Card],
                      stock: Sequence[Card] = (), to_move: int | None = None, *,
                      opening: bool = True, last_capturer: int | None = None) -> "Deal":
        """Set up a deal from a position (FORMAT.md), validating all of it first.

        ``opening`` (the default) treats the table as just dealt: pictures are
        set aside (R2.4) and V5 is checked.  Search code that resumes a deal in
        the middle passes ``opening=False``: the table is kept as it lies
        (crept pictures included) and ``last_capturer`` is carried over.
        """
        rules.validate_for(players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise SetupError("dealer must be a seat number 0..players-1")
        if to_move is None:
            to_move = (dealer + 1) % players
        if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < players:
            raise SetupError("to_move must be a seat number 0..players-1")
        if not isinstance(hands, (list, tuple)) or len(hands) != players:
            raise SetupError(f"hands must list {players} hands, one per seat")
        all_cards: list[Card] = []
        for part, name in [(h, "hand") for h in hands] + [(table, "table"), (stock, "stock")]:
            if not isinstance(part, (list, tuple)):
                raise SetupError(f"{name} must be a list of card codes")
            for card in part:
                if not is_card(card):
                    raise SetupError(f"unknown card code: {card!r}")
            all_cards.extend(part)
        excess = count_excess(all_cards, rules.copies)
        if excess:
            raise SetupError(f"more copies than the pack holds: {', '.join(excess)}")
        sizes = [len(hands[(to_move + i) % players]) for i in range(players)]
        if any(b > a for a, b in zip(sizes, sizes[1:])) or sizes[0] - sizes[-1] > 1:
            raise SetupError("hand sizes must not grow clockwise from to_move and may "
                             "differ by at most one")
        packet = 4 * players
        if stock and not rules.four_card_deal and len(stock) % packet:
            raise SetupError(f"a stock of {len(stock)} cannot be dealt in packets of "
                             f"4 to each of {players} players")
        deal = cls(
            rules=rules, players=players, dealer=dealer,
            opening=Opening([list(h) for h in hands], list(table), list(stock), to_move),
            hands=[list(h) for h in hands], table=list(table), stock=list(stock),
            to_move=to_move, last_player=(to_move - 1) % players,
            piles=[[] for _ in range(players)],
            sweep_markers=[[] for _ in range(players)],
            scores=[Score() for _ in range(players)],
        )
        if last_capturer is not None and not 0 <= last_capturer < players:
            raise SetupError("last_capturer must be a seat")
        deal.last_capturer = last_capturer
        if opening:
            deal._set_aside_pictures()  # R2.4
            deal._apply_bordstabbe()  # V5
        if not any(deal.hands):
            deal._after_hands_empty()
        return deal

    def _set_aside_pictures(self) -> None:
        """R2.4 / R2.5: J, Q, K leave the table; spade pictures on their own pile."""
        if not any(is_picture(c) for c in self.table):
            return
        keep: list[Card] = []
        for card in self.table:
            if not is_picture(card):
                keep.append(card)
            elif card[-1] == "S":
                self.set_aside_spades.append(card)
            else:
                self.set_aside_other.append(card)
        self.table = keep
        self._counts = None

    def _apply_bordstabbe(self) -> None:
        """V5: a cleaned opening table of 2+ cards of one value costs the first player 5."""
        if not self.rules.bordstabbe or len(self.table) < 2:
            return
        if len({table_value(c) for c in self.table}) == 1:
            seat = (self.dealer + 1) % self.players
            self.scores[seat].bordstabbe += BORDSTABBE
            self.bordstabbe_seat = seat

    # ---------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    def last_packet(self) -> bool:
        """R2.6: true exactly when the stock is empty."""
        return not self.stock

    def capture_options(self, card: Card) -> frozenset[int]:
        """Maximal takes (as value counts) for ``card`` on the current table."""
        return captures.maximal_takes(self._table_counts(), hand_value(card))

    def _table_counts(self) -> int:
        if self._counts is None:
            self._counts = captures.table_counts(self.table)
        return self._counts

    def _sweepers(self, hand: Iterable[Card]) -> list[Card]:
        """Cards of ``hand`` that can take the whole table (R4.1)."""
        if not self.table:
            return []  # R4.5
        counts = self._table_counts()
        return [c for c in set(hand) if counts in captures.maximal_takes(counts, hand_value(c))]

    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of the player to move (R3, R4.1, V4, V6).

        Distinct by (card code, multiset of taken codes); in canonical order.
        Computed once per position and kept until the state changes.
        """
        return list(self._legal_index())

    def _legal_index(self) -> dict[Move, str]:
        """Legal moves of this position mapped to their kind (creep, capture, ...)."""
        if self._legal is not None:
            return self._legal
        legal: dict[Move, str] = {}
        self._legal = legal
        if self.to_move is None:
            return legal
        table = self.table
        counts = self._table_counts()
        options = [(card, captures.maximal_takes(counts, hand_value(card)))
                   for card in sorted_cards(set(self.hands[self.to_move]))]
        if self.rules.forced_sweep and table:
            sweepers = [card for card, takes in options if counts in takes]
            if sweepers:  # R4.1: only the sweeps are legal
                whole = tuple(sorted_cards(table))
                for card in sweepers:
                    legal[Move(card, whole)] = self._sweep_kind(card, whole)
                return legal
        can_capture = any(takes for _, takes in options)
        n = len(table)
        for card, takes in options:
            if not takes:
                if not (self.rules.strict_capture and can_capture):  # V6 forbids creeping
                    legal[Move(card, ())] = CREEP
                continue
            for taken in sorted(takes):
                for codes in captures.expand_takes(table, taken):
                    legal[Move(card, codes)] = (
                        CAPTURE if len(codes) < n else self._sweep_kind(card, codes))
        return legal

    @staticmethod
    def _sweep_kind(card: Card, take: tuple[Card, ...]) -> str:
        """R4.3: a lone non-ace taken by its identical twin is a double sweep."""
        if len(take) == 1 and take[0] == card and table_value(card) != 1:
            return DOUBLE_SWEEP
        return SWEEP

    def check(self, card: Card, take: Sequence[Card] = ()) -> tuple[int, str]:
        """Raise the MoveError of FORMAT.md for an illegal move; else (seat, kind).

        The checks run in the order FORMAT.md fixes, so that the first failing
        one names the error: not_in_hand, invalid_capture, must_capture (this
        card), not_maximal, must_sweep, must_capture (V6).
        """
        seat = self.to_move
        if seat is None:
            raise DealOver("the deal is over")
        hand = self.hands[seat]
        if card not in hand:
            raise NotInHand(f"{card} is not in the hand of seat {seat}")
        value = hand_value(card)
        take = list(take)
        missing = Counter(take) - Counter(self.table)
        if missing:
            raise InvalidCapture("not on the table: " + ", ".join(sorted_cards(missing.elements())))
        taken_counts = captures.table_counts(take)
        if take and not captures.splits_into_groups(taken_counts, value):
            raise InvalidCapture(f"{' '.join(sorted_cards(take))} does not split into "
                                 f"groups of {value}")
        counts = self._table_counts()
        options = captures.maximal_takes(counts, value)
        if not take and options:
            raise MustCapture(f"{card} can capture and must take a maximal collection (R3.3)")
        if take and captures.has_group(counts - taken_counts, value):
            raise NotMaximal(f"another group of {value} remains on the table")
        sweep = bool(take) and len(take) == len(self.table)
        if self.rules.forced_sweep and not sweep and self._sweepers(hand):
            raise MustSweep("a card in hand can take the entire table (R4.1)")
        if self.rules.strict_capture and not take and any(
                captures.maximal_takes(counts, hand_value(c)) for c in set(hand)):
            raise MustCapture("a card in hand can capture; creeping is not allowed (V6)")
        if not take:
            return seat, CREEP
        if not sweep:
            return seat, CAPTURE
        return seat, self._sweep_kind(card, tuple(take))

    def is_legal(self, card: Card, take: Sequence[Card] = ()) -> bool:
        return Move.of(card, take) in self._legal_index()

    # --------------------------------------------------------------- changes

    def apply(self, card: Card, take: Sequence[Card] = ()) -> MoveResult:
        """Check and play one move; raises MoveError and changes nothing if illegal."""
        move = Move.of(card, take)
        kind = self._legal_index().get(move)
        if kind is None:
            self.check(card, take)  # raises the precise error
            raise AssertionError(f"{move} passed check but is not in the legal moves")
        seat = self.to_move
        assert seat is not None
        self._legal = None
        self.hands[seat].remove(card)
        conceded_by: int | None = None
        if kind == CREEP:
            self.table.append(card)
            if self._counts is not None:
                self._counts += captures.unit(card)
        else:
            for c in move.take:
                self.table.remove(c)
                if self._counts is not None:
                    self._counts -= captures.unit(c)
            pile = self.piles[seat]
            pile.append(card)
            pile.extend(move.take)
            nordic = self.rules.nordic
            self.scores[seat].card_points += card_points(card, nordic) + sum(
                card_points(c, nordic) for c in move.take)
            self.last_capturer = seat
            if kind in (SWEEP, DOUBLE_SWEEP):
                conceded_by = self.last_player  # R4.2
                self.sweep_markers[seat].append(card)
                if kind == SWEEP:
                    self.scores[seat].sweeps += 1
                    self.scores[conceded_by].sweeps_conceded += 1
                else:
                    self.scores[seat].double_sweeps += 1
                    self.scores[conceded_by].double_sweeps_conceded += 1
        self.last_player = seat
        self.moves.append(move)
        self.to_move = self._next_holder(seat)
        packet_dealt = False
        if self.to_move is None:
            packet_dealt = self._after_hands_empty()
        result = MoveResult(seat, card, kind, move.take, conceded_by, packet_dealt, self.award)
        self.results.append(result)
        return result

    def _next_holder(self, seat: int) -> int | None:
        """The next seat clockwise that still holds cards (V7 skips empty hands)."""
        for i in range(1, self.players + 1):
            nxt = (seat + i) % self.players
            if self.hands[nxt]:
                return nxt
        return None

    def _after_hands_empty(self) -> bool:
        """Every hand is empty: deal a packet (R2.5) or end the deal (R5)."""
        if self.stock:
            self._deal_packet()
            return True
        self._finish()
        return False

    def _deal_packet(self) -> None:
        """R2.5: clean the table, then 2+2 to each from the dealer's left (V7: short packet)."""
        self._set_aside_pictures()
        order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        stock = self.stock
        pos = 0
        if len(stock) >= 4 * self.players:
            for _ in range(2):
                for seat in order:
                    self.hands[seat].extend(stock[pos:pos + PACKET_BATCH])
                    pos += PACKET_BATCH
        else:  # V7: the remaining cards one at a time
            while pos < len(stock):
                self.hands[order[pos % self.players]].append(stock[pos])
                pos += 1
        self.stock = stock[pos:]
        self.packets_dealt += 1
        self._legal = None
        self.to_move = order[0]  # R2.1: the player left of the dealer leads

    def _finish(self) -> None:
        """R5: the last capturer (or the last player, R5.3) takes table and spade pictures."""
        seat = self.last_capturer if self.last_capturer is not None else self.last_player
        cards = tuple(sorted_cards(self.table + self.set_aside_spades))
        self.piles[seat].extend(cards)
        nordic = self.rules.nordic
        self.scores[seat].card_points += sum(card_points(c, nordic) for c in cards)
        self.table = []
        self._counts = 0
        self.set_aside_spades = []
        self.to_move = None
        self._legal = None
        self.award = Award(seat, cards)

    # ---------------------------------------------------------------- output

    def total_points(self) -> int:
        """Card points of every card in this deal: what the scores must add up to."""
        cards = [c for h in self.opening.hands for c in h] + self.opening.table + self.opening.stock
        return sum(card_points(c, self.rules.nordic) for c in cards)

    def state_dict(self) -> dict[str, object]:
        """The ``state`` object of FORMAT.md."""
        return {
            "to_move": self.to_move,
            "hands": [sorted_cards(h) for h in self.hands],
            "table": sorted_cards(self.table),
            "stock_count": len(self.stock),
            "last_packet": self.last_packet,
            "set_aside_spades": sorted_cards(self.set_aside_spades),
            "set_aside_other": sorted_cards(self.set_aside_other),
            "last_capturer": self.last_capturer,
        }

    def scores_list(self) -> list[dict[str, int]]:
        return [s.to_dict(seat) for seat, s in enumerate(self.scores)]

    def totals(self) -> list[int]:
        return [s.total for s in self.scores]


def _lenient_key(card: Card) -> tuple[int, str]:
    return (sort_key(card), "") if is_card(card) else (1 << 30, str(card))


