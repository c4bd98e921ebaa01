"""The legal-move generator: what the player to move may play (R3, R4.1, V4, V6, V9).

Pure functions of the rule set, the mover's hand and the table; ``Deal``
(deal.py) holds the state and asks here.  ``legal_moves`` lists every
distinct legal move with what it does (its kind); the error of a move that
is not among them is named by move_check.py.  This is the engine's hot path,
so this module holds only the generator and the memos that make it fast:
what a hand value may take comes from takes.py (V9) and captures.py (the
search), what a move is and is worth from moves.py.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from operator import itemgetter

from . import captures, expansion
from .cards import Card
from .counts import BELOW, MAX_VALUE, Counts, table_counts
from .moves import (
    CAPTURE,
    CREEP,
    CREEPS,
    HAND_VALUE,
    ORDER_KEY,
    LegalMove,
    Move,
    describe,
    new_move,
    sweep_kind,
)
from .rules import RuleSet
from .takes import can_sweep, take_options

_LOW_BITS = int("1" * MAX_VALUE, 16)
"""The lowest bit of every 4-bit count."""

Picker = Callable[[Sequence[Card]], Sequence[Card]]
"""Picks the cards of a take from a table in canonical order (a tuple from a tuple)."""
Plan = tuple[tuple[Counts, Picker | None], ...]
_BY_TABLE: dict[int, list[Plan | None]] = {}
"""Memo: (table counts, V9) -> the capture plan per hand value (None: not looked up yet)."""
PLANS_BY_TABLE = _BY_TABLE
"""The same memo under a public name, for the playout loop (it is only ever cleared, never
replaced, so a reference held to it stays the memo)."""
_PLANS: dict[int, Plan] = {}
"""Memo: (counts below the value, value, V9) -> capture plan (shared by all tables alike)."""


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


def table_plans(counts: Counts, picture_pairs: bool) -> list[Plan | None]:
    """The memoized capture plans of one table, by hand value (None: not looked up yet).

    The list is the memo's own entry, filled in by whoever looks a value up
    (``capture_plan``); random playouts (playout.py) read ``PLANS_BY_TABLE``
    directly and call this only for a table not seen yet.
    """
    key = counts << 1 | picture_pairs
    per_value = _BY_TABLE.get(key)
    if per_value is None:
        if len(_BY_TABLE) >= captures.CACHE_LIMIT:
            _BY_TABLE.clear()
        per_value = _BY_TABLE[key] = [None] * 15
    return per_value


def capture_plan(counts: Counts, value: int, picture_pairs: bool) -> Plan:
    """What a card of hand ``value`` can take from a table of ``counts`` (empty: it creeps).

    One entry per maximal take (R3.3), in order: (taken value counts, picker).
    A table sorted in canonical order holds its cards in runs by value, so
    when the take uses every table card of each of its values, the cards it
    names sit at fixed positions of that sorted table, whatever their suits:
    the picker (an ``itemgetter``) returns them as a tuple.  Otherwise (some
    twins or suits of a value stay behind) the picker is None and the
    distinct choices are expanded (expansion.expand_from).  Table values
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
    memoized per table counts (``capture_plan``), creeps are prebuilt, and
    the cards of a take are picked from the sorted table by position.
    """
    if len(table) <= captures.SMALL:
        return _build_legal(rules, hand, table, counts)
    with gc_paused():  # a crowded table may have tens of thousands of moves
        return _build_legal(rules, hand, table, counts)


def described_moves(rules: RuleSet, kinds: Mapping[Move, str]) -> tuple[LegalMove, ...]:
    """The legal moves ``legal_moves`` found, each with its kind, points and sweep credit."""
    nordic = rules.nordic
    return tuple(describe(move, kind, nordic) for move, kind in kinds.items())


def legal_move_list(
    rules: RuleSet, hand: Sequence[Card], table: Sequence[Card]
) -> tuple[LegalMove, ...]:
    """Every distinct legal move of ``hand`` on ``table`` as value objects (R3, R4.1, V4,
    V6, V9), in canonical order: what a seat to move may play, and what each does."""
    ordered = sorted(hand, key=ORDER_KEY)
    return described_moves(rules, legal_moves(rules, ordered, table, table_counts(table)))


def _build_legal(  # noqa: C901 - every move of a position, on the hot path: one pass
    rules: RuleSet, hand: Sequence[Card], table: Sequence[Card], counts: Counts
) -> dict[Move, str]:
    legal: dict[Move, str] = {}
    pairs = rules.picture_pairs
    per_value = _BY_TABLE.get(counts << 1 | pairs)
    if per_value is None:
        per_value = table_plans(counts, pairs)
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
    creeps = CREEPS
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
            plan = per_value[value] = capture_plan(counts, value, pairs)
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
                    by_value = expansion.value_cards(ordered)
                for codes in expansion.expand_from(by_value, taken):
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
