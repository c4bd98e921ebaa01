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

import gc
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Callable, Iterable, Iterator, NamedTuple, Sequence

from . import captures
from .cards import (
    ALL_CODES, Card, card_points, count_excess, hand_value, is_card, is_picture, sort_key,
    sorted_cards, table_value,
)
from .errors import (
    DealOver, InvalidCapture, MustCapture, MustSweep, NotInHand, NotMaximal,
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
        if not take:
            return _new_move(cls, (card, ()))
        try:
            ordered = sorted(take, key=_ORDER_KEY)
        except (KeyError, TypeError):
            ordered = sorted(take, key=_lenient_key)
        return _new_move(cls, (card, tuple(ordered)))

    def to_dict(self) -> dict[str, object]:
        return {"card": self.card, "take": list(self.take)}


@contextmanager
def gc_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector out of a burst of allocations.

    Listing the legal moves of a crowded table allocates up to ~10^5 tuples
    that hold only strings and can never form cycles; the many collections
    those allocations would set off on the way cost more than the one that
    follows the listing.  Only the caller that turned the collector off turns
    it back on.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_new_move = tuple.__new__
"""Builds a Move without the Python-level ``__new__`` of NamedTuple (hot path)."""
_ORDER_KEY = {code: i for i, code in enumerate(ALL_CODES)}.__getitem__
_HAND_VALUE: dict[Card, int] = {c: hand_value(c) for c in ALL_CODES}
_POINTS: dict[bool, dict[Card, int]] = {
    nordic: {c: card_points(c, nordic) for c in ALL_CODES} for nordic in (False, True)}
_PICTURES = frozenset(c for c in ALL_CODES if is_picture(c))
_CREEPS: dict[Card, Move] = {c: Move(c, ()) for c in ALL_CODES}
"""The creep of every card, built once (a creep is the most common move)."""
_UNIT = captures._UNIT
_SHIFT_OF: dict[Card, int] = {c: captures.BITS * (table_value(c) - 1) for c in ALL_CODES}
_LOW_BITS = int("1" * captures.MAX_VALUE, 16)
"""The lowest bit of every 4-bit count."""
Plan = tuple[tuple[int, Callable[[tuple[Card, ...]], tuple[Card, ...]] | None], ...]
_BY_TABLE: dict[int, list[Plan | None]] = {}
"""Memo: table counts -> the capture plan per hand value (None: not looked up yet)."""
_PLANS: dict[int, Plan] = {}
"""Memo: (relevant counts << 4 | value) -> capture plan (shared by all tables alike below value)."""


def clear_caches() -> None:
    """Forget every memoized capture search and plan (cold-cache measurements, tests)."""
    _BY_TABLE.clear()
    _PLANS.clear()
    captures.clear_caches()


def _capture_plan(counts: int, value: int) -> Plan:
    """What a card of hand ``value`` can take from a table of ``counts`` (empty: it creeps).

    One entry per maximal take (R3.3), in order: (taken value counts, picker).
    A table sorted in canonical order holds its cards in runs by value, so
    when the take uses every table card of each of its values, the cards it
    names sit at fixed positions of that sorted table, whatever their suits:
    the picker (an ``itemgetter``) returns them as a tuple.  Otherwise (some
    twins or suits of a value stay behind) the picker is None and the
    distinct choices are expanded (captures.expand_takes).  Table values
    above ``value`` never take part and sort after the rest, so the plan
    depends on the lower values only and is shared by all such tables.
    """
    relevant = counts & captures._BELOW[value]
    key = relevant << 4 | value
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    entries = []
    for taken in captures.take_options(relevant, value):
        present = taken | taken >> 1 | taken >> 2 | taken >> 3
        pick = None
        if relevant & (present & _LOW_BITS) * 15 == taken:
            positions: list[int] = []
            pos = 0
            rest_counts, rest_taken = relevant, taken
            while rest_counts:
                n = rest_counts & 15
                if rest_taken & 15:
                    positions.extend(range(pos, pos + n))
                pos += n
                rest_counts >>= 4
                rest_taken >>= 4
            if positions[-1] - positions[0] + 1 == len(positions):
                pick = itemgetter(slice(positions[0], positions[-1] + 1))
            else:
                pick = itemgetter(*positions)
        entries.append((taken, pick))
    plan = tuple(entries)
    if len(_PLANS) >= captures.CACHE_LIMIT:
        _PLANS.clear()
    _PLANS[key] = plan
    return plan


_FULL_PACK: dict[int, dict[Card, int]] = {n: {c: n for c in ALL_CODES} for n in (1, 2)}
"""What a complete pack holds, compared as plain dicts (Counter's == is slow Python)."""


@dataclass(frozen=True, slots=True)
class Award:
    """The end-of-deal award (R5.1, R5.3): table rest plus set-aside spade pictures."""

    seat: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "cards": list(self.cards)}


class MoveResult(NamedTuple):
    """What one applied move did.

    Immutable, like a frozen dataclass, but a NamedTuple: one is made for
    every move of every simulated deal, and a tuple is made fastest.
    """

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
        try:
            complete = len(pack) == expected and dict.__eq__(Counter(pack), _FULL_PACK[rules.copies])
        except TypeError:  # an unhashable "card"
            complete = False
        if not complete:
            raise SetupError(f"a pack for these rules holds {expected} cards, each "
                             f"{rules.copies} time(s)")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
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
        # A complete pack dealt by R2.2 is a valid position: no need to check it again.
        return cls._build(rules, players, dealer, hands, table, cards[pos:], order[0],
                          True, None)

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
        if last_capturer is not None and (
                isinstance(last_capturer, bool) or not isinstance(last_capturer, int)
                or not 0 <= last_capturer < players):
            raise SetupError("last_capturer must be a seat")
        return cls._build(rules, players, dealer, hands, table, stock, to_move,
                          opening, last_capturer)

    @classmethod
    def _build(cls, rules: RuleSet, players: int, dealer: int,
               hands: Sequence[Sequence[Card]], table: Sequence[Card], stock: Sequence[Card],
               to_move: int, opening: bool, last_capturer: int | None) -> "Deal":
        """The deal of a position already known to be valid."""
        deal = cls(
            rules=rules, players=players, dealer=dealer,
            opening=Opening([list(h) for h in hands], list(table), list(stock), to_move),
            # Hands are kept in canonical order: legal moves come out in that order.
            hands=[sorted(h, key=_ORDER_KEY) for h in hands], table=list(table),
            stock=list(stock), to_move=to_move, last_player=(to_move - 1) % players,
            piles=[[] for _ in range(players)],
            sweep_markers=[[] for _ in range(players)],
            scores=[Score() for _ in range(players)],
        )
        deal.last_capturer = last_capturer
        if opening:
            deal._set_aside_pictures()  # R2.4
            deal._apply_bordstabbe()  # V5
        if not any(deal.hands):
            deal._after_hands_empty()
        return deal

    def _set_aside_pictures(self) -> None:
        """R2.4 / R2.5: J, Q, K leave the table; spade pictures on their own pile."""
        pictures = _PICTURES
        if not any(c in pictures for c in self.table):
            return
        keep: list[Card] = []
        for card in self.table:
            if card not in pictures:
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
        """Legal moves of this position mapped to their kind (creep, capture, ...).

        This is the engine's hot path (every move of every simulated deal goes
        through it), hence the inlined caches: what each hand value can take
        is memoized per table counts (``_capture_plan``), creeps are prebuilt,
        and the cards of a take are picked from the sorted table by position.
        """
        legal = self._legal
        if legal is not None:
            return legal
        if len(self.table) <= captures.SMALL:
            return self._build_legal()
        with gc_paused():  # a crowded table may have tens of thousands of moves
            return self._build_legal()

    def _build_legal(self) -> dict[Move, str]:
        legal = self._legal = {}
        seat = self.to_move
        if seat is None:
            return legal
        table = self.table
        counts = self._counts
        if counts is None:
            counts = self._counts = captures.table_counts(table)
        per_value = _BY_TABLE.get(counts)
        if per_value is None:
            if len(_BY_TABLE) >= captures.CACHE_LIMIT:
                _BY_TABLE.clear()
            per_value = _BY_TABLE[counts] = [None] * 15
        hand_values = _HAND_VALUE
        if len(table) > captures.SMALL and not self.rules.no_forced_sweep:
            # A big table may take long to search for every card: look for a
            # forced sweep (R4.1) first, which is quick to decide.
            sweeps = captures.sweeps
            sweepers = [card for card in dict.fromkeys(self.hands[seat])
                        if sweeps(counts, hand_values[card])]
            if sweepers:
                whole = tuple(sorted(table, key=_ORDER_KEY))
                for card in sweepers:
                    legal[_new_move(Move, (card, whole))] = self._sweep_kind(card, whole)
                return legal
        creeps = _CREEPS
        sweepers = None
        can_capture = False
        ordered = None
        by_value = None
        prev = None
        for card in self.hands[seat]:  # canonical order, so twins are neighbours
            if card == prev:
                continue
            prev = card
            value = hand_values[card]
            plan = per_value[value]
            if plan is None:
                plan = per_value[value] = _capture_plan(counts, value)
            if not plan:
                legal[creeps[card]] = CREEP
                continue
            can_capture = True
            if plan[-1][0] == counts:  # the whole table is the largest take when it is one
                if sweepers is None:
                    sweepers = [card]
                else:
                    sweepers.append(card)
            if ordered is None:
                ordered = tuple(sorted(table, key=_ORDER_KEY))
            for taken, pick in plan:
                if pick is not None:
                    codes = pick(ordered)
                    legal[_new_move(Move, (card, codes))] = (
                        CAPTURE if taken != counts else self._sweep_kind(card, codes))
                else:  # never the whole table: captures all
                    if by_value is None:
                        by_value = captures.value_cards(ordered)
                    for codes in captures.expand_from(by_value, taken):
                        legal[_new_move(Move, (card, codes))] = CAPTURE
        if not can_capture:
            return legal
        rules = self.rules
        if sweepers is not None and not rules.no_forced_sweep:  # R4.1: only sweeps
            whole = tuple(ordered)  # type: ignore[arg-type]
            legal = self._legal = {}
            for card in sweepers:
                legal[_new_move(Move, (card, whole))] = self._sweep_kind(card, whole)
        elif rules.strict_capture:  # V6: no creeping while a capture is possible
            legal = self._legal = {m: k for m, k in legal.items() if k != CREEP}
        return legal

    @staticmethod
    def _sweep_kind(card: Card, take: tuple[Card, ...]) -> str:
        """R4.3: a lone non-ace taken by its identical twin is a double sweep."""
        if len(take) == 1 and take[0] == card and card[0] != "A":
            return DOUBLE_SWEEP
        return SWEEP

    def check(self, card: Card, take: Sequence[Card] | None = ()) -> tuple[int, str]:
        """Raise the MoveError of FORMAT.md for an illegal move; else (seat, kind).

        The checks run in the order FORMAT.md fixes, so that the first failing
        one names the error: not_in_hand, invalid_capture, must_capture (this
        card), not_maximal, must_sweep, must_capture (V6).
        """
        seat = self.to_move
        if seat is None:
            raise DealOver("the deal is over")
        hand = self.hands[seat]
        if not is_card(card) or card not in hand:
            raise NotInHand(f"{card!r} is not in the hand of seat {seat}")
        value = hand_value(card)
        take = list(take or ())
        if not all(is_card(c) for c in take):
            raise InvalidCapture("not a card on the table: " + ", ".join(
                repr(c) for c in take if not is_card(c)))
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

    def is_legal(self, card: Card, take: Sequence[Card] | None = ()) -> bool:
        try:
            return Move.of(card, take) in self._legal_index()
        except TypeError:  # unhashable junk is no card
            return False

    # --------------------------------------------------------------- changes

    def apply(self, card: Card, take: Sequence[Card] | None = ()) -> MoveResult:
        """Check and play one move; raises MoveError and changes nothing if illegal."""
        move = None
        try:
            move = Move.of(card, take)
            kind = self._legal_index().get(move)
        except TypeError:  # unhashable junk: let check() name the error
            kind = None
        if kind is None:
            self.check(card, take)  # raises the precise error
            raise AssertionError(f"{move} passed check but is not in the legal moves")
        return self._play(move, kind)  # type: ignore[arg-type]

    def _play(self, move: Move, kind: str) -> MoveResult:
        """Play ``move``, known to be legal here with this ``kind`` (from _legal_index)."""
        seat: int = self.to_move  # type: ignore[assignment]
        card, take = move
        self._legal = None
        hands = self.hands
        hands[seat].remove(card)
        conceded_by: int | None = None
        if kind is CREEP:
            self.table.append(card)
            if self._counts is not None:
                self._counts += _UNIT[card]
        else:
            self._capture(seat, card, take)
            if kind is not CAPTURE:
                conceded_by = self.last_player  # R4.2
                self.sweep_markers[seat].append(card)
                if kind is SWEEP:
                    self.scores[seat].sweeps += 1
                    self.scores[conceded_by].sweeps_conceded += 1
                else:
                    self.scores[seat].double_sweeps += 1
                    self.scores[conceded_by].double_sweeps_conceded += 1
        self.last_player = seat
        self.moves.append(move)
        nxt = seat + 1  # the next seat clockwise that still holds cards (V7 skips)
        if nxt == self.players:
            nxt = 0
        if hands[nxt]:
            self.to_move = nxt
            result = _new_move(MoveResult, (seat, card, kind, take, conceded_by, False, None))
        else:
            self.to_move = self._next_holder(seat)
            packet_dealt = self.to_move is None and self._after_hands_empty()
            result = _new_move(MoveResult, (seat, card, kind, take, conceded_by, packet_dealt,
                                            self.award))
        self.results.append(result)
        return result

    def _capture(self, seat: int, card: Card, take: tuple[Card, ...]) -> None:
        """Move ``card`` and the taken table cards to the capture pile (R3.3) and score them."""
        table = self.table
        if len(take) == len(table):
            self.table = []
            self._counts = 0
        else:
            counts = self._counts
            for c in take:
                table.remove(c)
                if counts is not None:
                    counts -= _UNIT[c]
            self._counts = counts
        pile = self.piles[seat]
        pile.append(card)
        pile.extend(take)
        points = _POINTS[self.rules.nordic]
        gained = points[card]
        for c in take:
            gained += points[c]
        self.scores[seat].card_points += gained
        self.last_capturer = seat

    def _next_holder(self, seat: int) -> int | None:
        """The next seat clockwise that still holds cards (V7 skips empty hands)."""
        hands = self.hands
        players = self.players
        nxt = seat + 1
        if nxt == players:
            nxt = 0
        if hands[nxt]:
            return nxt
        for i in range(2, players + 1):
            nxt = (seat + i) % players
            if hands[nxt]:
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
        for hand in self.hands:
            hand.sort(key=_ORDER_KEY)
        self.stock = stock[pos:]
        self.packets_dealt += 1
        self._legal = None
        self.to_move = order[0]  # R2.1: the player left of the dealer leads

    def _finish(self) -> None:
        """R5: the last capturer (or the last player, R5.3) takes table and spade pictures."""
        seat = self.last_capturer if self.last_capturer is not None else self.last_player
        cards = tuple(sorted(self.table + self.set_aside_spades, key=_ORDER_KEY))
        self.piles[seat].extend(cards)
        points = _POINTS[self.rules.nordic]
        self.scores[seat].card_points += sum(map(points.__getitem__, cards))
        self.table = []
        self._counts = 0
        self.set_aside_spades = []
        self.to_move = None
        self._legal = None
        self.award = Award(seat, cards)

    # ---------------------------------------------------------------- output

    def total_points(self) -> int:
        """Card points of every card in this deal: what the scores must add up to."""
        points = _POINTS[self.rules.nordic]
        opening = self.opening
        total = sum(map(points.__getitem__, opening.table)) + sum(
            map(points.__getitem__, opening.stock))
        for hand in opening.hands:
            total += sum(map(points.__getitem__, hand))
        return total

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


