"""The legal-move generator: what the player to move may play (R3, R4.1, V4, V6, V9).

Pure functions of the rule set, the mover's hand and the table; ``Deal``
(deal.py) holds the state and asks here.  ``legal_moves`` lists every
distinct legal move with what it does (its kind); ``check_move`` names the
precise error of FORMAT.md for a move that is not among them.

What a card may take is searched on value counts (captures.py).  Under V9
(picture pairs) a J, Q or K from hand takes only the table cards of its own
rank, and a table picture is never part of a sum: both are expressed here as
a mask on the counts, so the search itself knows nothing about V9.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import NamedTuple

from . import captures, scoring
from .captures import BELOW, MASK, Counts
from .cards import (
    ALL_CODES,
    Card,
    card_points,
    hand_value,
    is_card,
    is_picture,
    sort_key,
    sorted_cards,
)
from .errors import InvalidCapture, MustCapture, MustSweep, NotInHand, NotMaximal
from .rules import RuleSet

CREEP = "creep"
CAPTURE = "capture"
SWEEP = "sweep"
DOUBLE_SWEEP = "double_sweep"
MOVE_KINDS: tuple[str, ...] = (CREEP, CAPTURE, SWEEP, DOUBLE_SWEEP)
"""What a move does (FORMAT.md ``kind``)."""
SWEEP_CREDIT: dict[str, int] = {
    CREEP: 0,
    CAPTURE: 0,
    SWEEP: scoring.SWEEP,
    DOUBLE_SWEEP: scoring.DOUBLE_SWEEP,
}
"""R4.2, R4.3: what a move of each kind adds to its maker's score (and takes
from the preceding player's)."""

HIGHEST_NUMERAL = 10
"""V9: table values above this are pictures (J 11, Q 12, K 13, R1.4)."""


class Move(NamedTuple):
    """A proposed play: the card and the table cards it takes (empty: creep).

    A NamedTuple rather than a frozen dataclass: moves are made by the
    thousand in every search, and tuples are the cheapest immutable value.
    """

    card: Card
    take: tuple[Card, ...] = ()

    @classmethod
    def of(cls, card: Card, take: Iterable[Card] | None = None) -> Move:
        """A move with its take in canonical order (unknown codes sort last)."""
        if not take:
            return new_move(cls, (card, ()))
        try:
            ordered = sorted(take, key=ORDER_KEY)
        except (KeyError, TypeError):
            ordered = sorted(take, key=_lenient_key)
        return new_move(cls, (card, tuple(ordered)))

    def to_dict(self) -> dict[str, object]:
        return {"card": self.card, "take": list(self.take)}


new_move = tuple.__new__
"""Builds a Move (or any NamedTuple) without its Python-level ``__new__`` (hot path)."""
ORDER_KEY = {code: i for i, code in enumerate(ALL_CODES)}.__getitem__
"""Canonical card order (FORMAT.md) as a fast key function."""
HAND_VALUE: dict[Card, int] = {c: hand_value(c) for c in ALL_CODES}
POINTS: dict[bool, dict[Card, int]] = {
    nordic: {c: card_points(c, nordic) for c in ALL_CODES} for nordic in (False, True)
}
"""Card points of every code (R6.1), without and with V3 (nordic)."""
PICTURES = frozenset(c for c in ALL_CODES if is_picture(c))
_CREEPS: dict[Card, Move] = {c: Move(c, ()) for c in ALL_CODES}
"""The creep of every card, built once (a creep is the most common move)."""
_LOW_BITS = int("1" * captures.MAX_VALUE, 16)
"""The lowest bit of every 4-bit count."""
_NUMERALS = BELOW[HIGHEST_NUMERAL]

Picker = Callable[[tuple[Card, ...]], tuple[Card, ...]]
Plan = tuple[tuple[Counts, Picker | None], ...]
_BY_TABLE: dict[int, list[Plan | None]] = {}
"""Memo: (table counts, V9) -> the capture plan per hand value (None: not looked up yet)."""
_PLANS: dict[int, Plan] = {}
"""Memo: (counts below the value, value, V9) -> capture plan (shared by all tables alike)."""


def move_points(card: Card, take: Iterable[Card], nordic: bool = False) -> int:
    """Card points a move puts in the mover's pile (R6.1, V3): 0 for a creep."""
    points = POINTS[nordic]
    take = tuple(take)
    if not take:
        return 0
    return points[card] + sum(map(points.__getitem__, take))


def sweep_kind(card: Card, take: Sequence[Card]) -> str:
    """R4.3: a lone non-ace taken by its identical twin is a double sweep; else a sweep."""
    if len(take) == 1 and take[0] == card and card[0] != "A":
        return DOUBLE_SWEEP
    return SWEEP


def sweep_markers_of(card: Card, kind: str) -> tuple[Card, ...]:
    """R4.4: the face-up cards a sweep leaves in the pile: the capturing card, and
    for a double sweep its twin too (two cards mark a double)."""
    if kind == DOUBLE_SWEEP:
        return (card, card)
    if kind == SWEEP:
        return (card,)
    return ()


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


def clear_caches() -> None:
    """Forget every memoized capture search and plan (cold-cache measurements, tests)."""
    _BY_TABLE.clear()
    _PLANS.clear()
    captures.clear_caches()


def take_options(counts: Counts, value: int, picture_pairs: bool) -> tuple[Counts, ...]:
    """Every maximal take (R3.3) of a hand ``value`` from a table of ``counts``.

    V9: a picture takes all table cards of its own rank and nothing else; any
    other card sees only the numerals (and table aces) of the table.
    """
    if picture_pairs:
        if HIGHEST_NUMERAL < value <= captures.MAX_VALUE:
            own = counts & (MASK << captures.BITS * (value - 1))
            return (own,) if own else ()
        counts &= _NUMERALS
    return captures.take_options(counts, value)


def can_sweep(counts: Counts, value: int, picture_pairs: bool) -> bool:
    """True when a card of hand ``value`` takes the whole (non-empty) table (R4.1, R4.5, V9)."""
    if not counts:
        return False
    if picture_pairs:
        if HIGHEST_NUMERAL < value <= captures.MAX_VALUE:
            return counts == counts & (MASK << captures.BITS * (value - 1))
        if counts & ~_NUMERALS:
            return False
    return captures.sweeps(counts, value)


def sweeping_values(table: Sequence[Card], rules: RuleSet) -> tuple[int, ...]:
    """The hand values (2..14) that would take this whole table (R4.1; empty table: none)."""
    counts = captures.table_counts(table)
    return tuple(v for v in range(2, 15) if can_sweep(counts, v, rules.picture_pairs))


def capturing_values(table: Sequence[Card], rules: RuleSet) -> tuple[int, ...]:
    """The hand values (2..14) that form at least one group on this table (R3.2, V9)."""
    counts = captures.table_counts(table)
    return tuple(v for v in range(2, 15) if take_options(counts, v, rules.picture_pairs))


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


def _capture_plan(counts: Counts, value: int, picture_pairs: bool) -> Plan:
    """What a card of hand ``value`` can take from a table of ``counts`` (empty: it creeps).

    One entry per maximal take (R3.3), in order: (taken value counts, picker).
    A table sorted in canonical order holds its cards in runs by value, so
    when the take uses every table card of each of its values, the cards it
    names sit at fixed positions of that sorted table, whatever their suits:
    the picker (an ``itemgetter``) returns them as a tuple.  Otherwise (some
    twins or suits of a value stay behind) the picker is None and the
    distinct choices are expanded (captures.expand_from).  Table values
    above ``value`` never take part and sort after the rest, so the plan
    depends on the lower values only and is shared by all such tables.
    """
    basis = counts & BELOW[value]
    key = (basis << 4 | value) << 1 | picture_pairs
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    entries: list[tuple[Counts, Picker | None]] = []
    for taken in take_options(basis, value, picture_pairs):
        present = taken | taken >> 1 | taken >> 2 | taken >> 3
        pick: Picker | None = None
        if basis & (present & _LOW_BITS) * 15 == taken:
            positions: list[int] = []
            pos = 0
            rest_counts, rest_taken = basis, taken
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
                pick = _tuple_getter(positions)
        entries.append((taken, pick))
    plan = tuple(entries)
    if len(_PLANS) >= captures.CACHE_LIMIT:
        _PLANS.clear()
    _PLANS[key] = plan
    return plan


def _tuple_getter(positions: list[int]) -> Picker:
    """An itemgetter that always returns a tuple (one position returns a tuple too)."""
    if len(positions) == 1:
        only = positions[0]
        return lambda cards: (cards[only],)
    return itemgetter(*positions)


def legal_moves(
    rules: RuleSet, hand: Sequence[Card], table: Sequence[Card], counts: Counts
) -> dict[Move, str]:
    """Every distinct legal move of ``hand`` (canonically sorted) mapped to its kind.

    Distinct by (card code, multiset of taken codes); in canonical order.
    This is the engine's hot path (every move of every simulated deal goes
    through it), hence the inlined caches: what each hand value can take is
    memoized per table counts (``_capture_plan``), creeps are prebuilt, and
    the cards of a take are picked from the sorted table by position.
    """
    if len(table) <= captures.SMALL:
        return _build_legal(rules, hand, table, counts)
    with gc_paused():  # a crowded table may have tens of thousands of moves
        return _build_legal(rules, hand, table, counts)


def _build_legal(
    rules: RuleSet, hand: Sequence[Card], table: Sequence[Card], counts: Counts
) -> dict[Move, str]:
    legal: dict[Move, str] = {}
    pairs = rules.picture_pairs
    table_key = counts << 1 | pairs
    per_value = _BY_TABLE.get(table_key)
    if per_value is None:
        if len(_BY_TABLE) >= captures.CACHE_LIMIT:
            _BY_TABLE.clear()
        per_value = _BY_TABLE[table_key] = [None] * 15
    hand_values = HAND_VALUE
    if len(table) > captures.SMALL and rules.forced_sweep:
        # A big table may take long to search for every card: look for a
        # forced sweep (R4.1) first, which is quick to decide.
        sweepers = [
            card for card in dict.fromkeys(hand) if can_sweep(counts, hand_values[card], pairs)
        ]
        if sweepers:
            whole = tuple(sorted(table, key=ORDER_KEY))
            for card in sweepers:
                legal[new_move(Move, (card, whole))] = sweep_kind(card, whole)
            return legal
    creeps = _CREEPS
    sweepers = []
    can_capture = False
    ordered: tuple[Card, ...] = ()
    by_value = None
    prev = None
    for card in hand:  # canonical order, so twins are neighbours
        if card == prev:
            continue
        prev = card
        value = hand_values[card]
        plan = per_value[value]
        if plan is None:
            plan = per_value[value] = _capture_plan(counts, value, pairs)
        if not plan:
            legal[creeps[card]] = CREEP
            continue
        can_capture = True
        if plan[-1][0] == counts:  # the whole table is the largest take when it is one
            sweepers.append(card)
        if not ordered:
            ordered = tuple(sorted(table, key=ORDER_KEY))
        for taken, pick in plan:
            if pick is not None:
                codes = pick(ordered)
                legal[new_move(Move, (card, codes))] = (
                    CAPTURE if taken != counts else sweep_kind(card, codes)
                )
            else:  # never the whole table: captures all
                if by_value is None:
                    by_value = captures.value_cards(ordered)
                for codes in captures.expand_from(by_value, taken):
                    legal[new_move(Move, (card, codes))] = CAPTURE
    if not can_capture:
        return legal
    if sweepers and rules.forced_sweep:  # R4.1: only sweeps
        legal = {}
        for card in sweepers:
            legal[new_move(Move, (card, ordered))] = sweep_kind(card, ordered)
    elif rules.strict_capture:  # V6: no creeping while a capture is possible
        legal = {m: k for m, k in legal.items() if k != CREEP}
    return legal


def check_move(
    rules: RuleSet,
    hand: Sequence[Card],
    table: Sequence[Card],
    counts: Counts,
    card: Card,
    take: Sequence[Card] | None,
) -> str:
    """Raise the MoveError of FORMAT.md for an illegal move; else return its kind.

    The checks run in the order FORMAT.md fixes, so that the first failing
    one names the error: not_in_hand, invalid_capture, must_capture (this
    card), not_maximal, must_sweep, must_capture (V6).
    """
    if not is_card(card) or card not in hand:
        raise NotInHand(f"{card!r} is not in the hand")
    value = hand_value(card)
    pairs = rules.picture_pairs
    taking = list(take or ())
    if not all(is_card(c) for c in taking):
        raise InvalidCapture(
            "not a card on the table: " + ", ".join(repr(c) for c in taking if not is_card(c))
        )
    missing = Counter(taking) - Counter(table)
    if missing:
        raise InvalidCapture("not on the table: " + ", ".join(sorted_cards(missing.elements())))
    if (
        pairs
        and taking
        and (is_picture(card) or any(c in PICTURES for c in taking))
        and any(c[:-1] != card[:-1] for c in taking)
    ):
        raise InvalidCapture(
            f"{' '.join(sorted_cards(taking))}: a picture is taken only by "
            "its own rank and takes nothing else (V9)"
        )
    taken_counts = captures.table_counts(taking)
    if taking and not captures.splits_into_groups(taken_counts, value):
        raise InvalidCapture(
            f"{' '.join(sorted_cards(taking))} does not split into groups of {value}"
        )
    options = take_options(counts, value, pairs)
    if not taking and options:
        raise MustCapture(f"{card} can capture and must take a maximal collection (R3.3)")
    if taking and taken_counts not in options:
        raise NotMaximal(f"another group of {value} remains on the table")
    sweep = bool(taking) and len(taking) == len(table)
    if (
        rules.forced_sweep
        and not sweep
        and any(can_sweep(counts, hand_value(c), pairs) for c in set(hand))
    ):
        raise MustSweep("a card in hand can take the entire table (R4.1)")
    if (
        rules.strict_capture
        and not taking
        and any(take_options(counts, hand_value(c), pairs) for c in set(hand))
    ):
        raise MustCapture("a card in hand can capture; creeping is not allowed (V6)")
    if not taking:
        return CREEP
    if not sweep:
        return CAPTURE
    return sweep_kind(card, tuple(taking))


def _lenient_key(card: Card) -> tuple[int, str]:
    return (sort_key(card), "") if is_card(card) else (1 << 30, str(card))
