"""Capture search (R3.2, R3.3, R4.1): which table cards a played value may take.

The search works on value counts, not on cards: a table is a vector of how
many cards of each table value 1..13 it holds, a group is a sub-multiset of
values adding up to the played value, and a capture is a union of disjoint
groups that leaves no further group behind (maximal, R3.3).  Twins and suits
play no part in what can be taken, so the vector search is exact; it is
memoized per (table vector, value), and only at the end expanded into the
distinct multisets of card codes a player may actually name.

Vectors are packed into one integer, four bits per value (a value occurs at
most 8 times on a table of two packs), so states hash and subtract cheaply.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product
from typing import Iterable, Sequence

from .cards import ALL_CODES, Card, sort_key, table_value

BITS = 4
MASK = (1 << BITS) - 1
MAX_VALUE = 13

Counts = int
"""A multiset of table values 1..13 packed as 4-bit counts (value v at bits 4(v-1))."""


def pack_counts(values: Iterable[int]) -> Counts:
    counts = 0
    for v in values:
        counts += 1 << (BITS * (v - 1))
    return counts


def unpack_counts(counts: Counts) -> list[int]:
    """Counts as a list indexed by value (index 0 unused)."""
    return [0] + [(counts >> (BITS * i)) & MASK for i in range(MAX_VALUE)]


_VALUE: dict[Card, int] = {c: table_value(c) for c in ALL_CODES}
_UNIT: dict[Card, Counts] = {c: 1 << (BITS * (table_value(c) - 1)) for c in ALL_CODES}


def unit(card: Card) -> Counts:
    """The counts of one card lying on the table."""
    return _UNIT[card]


def table_counts(table: Iterable[Card]) -> Counts:
    return sum(map(_UNIT.__getitem__, table))


@lru_cache(maxsize=262144)
def _groups(counts: Counts, value: int) -> tuple[Counts, ...]:
    """Every sub-multiset of ``counts`` whose values add up to ``value`` (R3.2)."""
    have = unpack_counts(counts)
    out: list[Counts] = []

    def walk(top: int, remaining: int, acc: Counts) -> None:
        if remaining == 0:
            out.append(acc)
            return
        for v in range(min(top, remaining), 0, -1):
            n = have[v]
            if not n:
                continue
            shift = BITS * (v - 1)
            # take k >= 1 cards of value v, then only smaller values
            for k in range(1, min(n, remaining // v) + 1):
                walk(v - 1, remaining - k * v, acc + (k << shift))

    walk(min(value, MAX_VALUE), value, 0)
    return tuple(out)


def has_group(counts: Counts, value: int) -> bool:
    """True when some sub-multiset of ``counts`` adds up to ``value`` (subset sum)."""
    reach = 1  # bit s set: sum s reachable
    limit = (1 << (value + 1)) - 1
    for v in range(1, min(value, MAX_VALUE) + 1):
        n = (counts >> (BITS * (v - 1))) & MASK
        for _ in range(n):
            reach |= (reach << v) & limit
            if reach >> value & 1:
                return True
    return bool(reach >> value & 1)


_BELOW: list[Counts] = [(1 << (BITS * min(v, MAX_VALUE))) - 1 for v in range(MAX_VALUE + 2)]


def maximal_takes(counts: Counts, value: int) -> frozenset[Counts]:
    """Every maximal collection of disjoint groups, as the taken value counts.

    Table values above the played value never take part, so they are masked
    off before the (cached) search: more positions share one cache entry.
    """
    return _maximal_takes(counts & _BELOW[value], value)


@lru_cache(maxsize=131072)
def _maximal_takes(relevant: Counts, value: int) -> frozenset[Counts]:
    """Every maximal collection of disjoint groups, as the taken value counts.

    Empty when the value forms no group at all (the card creeps, R3.4).  The
    whole table is among the results exactly when the card can sweep (R4.1).

    A take T is maximal when T splits into groups and the leftover R = table - T
    holds no group (R3.3).  "Holds no group" is closed under removing cards, so
    the search enumerates the candidate leftovers R value by value, pruning as
    soon as a partial R holds a group; only then is T checked to split.  This
    visits far fewer states than removing group after group.
    """
    if not has_group(relevant, value):
        return frozenset()
    have = unpack_counts(relevant)
    values = [v for v in range(1, MAX_VALUE + 1) if have[v]]
    total = sum(v * have[v] for v in values)
    limit = (1 << (value + 1)) - 1
    target_bit = 1 << value
    out: set[Counts] = set()

    def walk(i: int, reach: int, rest: Counts, rest_sum: int) -> None:
        if i == len(values):
            taken = relevant - rest
            if taken and (total - rest_sum) % value == 0 and _splits(taken, value):
                out.add(taken)
            return
        v = values[i]
        shift = BITS * (v - 1)
        walk(i + 1, reach, rest, rest_sum)
        for k in range(1, have[v] + 1):
            reach |= (reach << v) & limit
            if reach & target_bit:
                break
            walk(i + 1, reach, rest + (k << shift), rest_sum + k * v)

    walk(0, 1, 0, 0)
    return frozenset(out)


def can_sweep(table: Sequence[Card], value: int) -> bool:
    """True when the whole (non-empty) table splits into groups of ``value`` (R4.1, R4.5)."""
    if not table:
        return False
    counts = table_counts(table)
    return counts in maximal_takes(counts, value)


def splits_into_groups(counts: Counts, value: int) -> bool:
    """True when the multiset ``counts`` is a union of disjoint groups of ``value``."""
    if counts == 0:
        return False
    total = sum(v * n for v, n in enumerate(unpack_counts(counts)))
    if total % value:
        return False
    return _splits(counts, value)


@lru_cache(maxsize=262144)
def _splits(counts: Counts, value: int) -> bool:
    """Exact partition check: the largest value present must lie in some group."""
    if counts == 0:
        return True
    top = MAX_VALUE
    while not (counts >> (BITS * (top - 1))) & MASK:
        top -= 1
    if top > value:
        return False
    rest = counts - (1 << (BITS * (top - 1)))
    need = value - top
    if need == 0:
        return _splits(rest, value)
    for g in _groups(rest, need):
        if _splits(rest - g, value):
            return True
    return False


def expand_takes(table: Sequence[Card], taken: Counts) -> list[tuple[Card, ...]]:
    """All distinct multisets of table card codes whose values are ``taken``.

    Each result is a tuple sorted in canonical card order.  When a value's
    cards are all taken there is one choice only, the common case.
    """
    have = table_counts(table)
    if taken == have:
        return [tuple(sorted(table, key=sort_key))]
    choices: list[list[tuple[Card, ...]]] = []
    for v, n in enumerate(unpack_counts(taken)):
        if not n:
            continue
        cards = sorted((c for c in table if _VALUE[c] == v), key=sort_key)
        if len(cards) == n:
            choices.append([tuple(cards)])
        else:
            choices.append(sorted(set(combinations(cards, n))))
    if len(choices) == 1:
        return choices[0]
    out = []
    for parts in product(*choices):
        out.append(tuple(sorted((c for part in parts for c in part), key=sort_key)))
    return out
