"""Capture search (R3.2, R3.3, R4.1): which table cards a played value may take.

The search works on value counts, not on cards: a table is a vector of how
many cards of each table value 1..13 it holds, a group is a sub-multiset of
values adding up to the played value, and a capture is a union of disjoint
groups that leaves no further group behind (maximal, R3.3).  Twins and suits
play no part in what can be taken, so the vector search is exact; it is
memoized per (table vector, value), and only at the end expanded into the
distinct multisets of card codes a player may actually name (expansion.py).

The vectors and their packing (counts.py) are shared with the legal-move
generator; this module holds the searches and their memos only, so that the
one hard algorithm of the engine can be read, measured and tested alone.

How the maximal takes are found (``take_options``): a take T is maximal when
T splits into groups and the leftover R = table - T holds no group.

* A few cards (at most ``SMALL`` of values up to the played one, the usual
  case): every group is listed from the subset sums, then every packing of
  disjoint groups that leaves none of them fitting behind is a take.
* A crowded table: "holds no group" is closed under removing cards, so the
  leftovers are built value by value, in ascending order, while the set of
  sums R can reach is kept as a bitset; a branch dies as soon as R reaches
  the played value.  Branches that reach the same relevant sums (those that
  the values still to come could complete) behave alike from then on, so they
  are merged: a dynamic program over reachable sums, not a tree walk.  Only
  leftovers whose take adds up to a multiple of the value reach the exact
  partition check (``_splits``), a depth-first search that fills one group at
  a time, card by card in non-increasing order, and remembers every partial
  state that failed.

Both stay within milliseconds on 25-card tables of small cards (see
bench/engine.py and docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .counts import BELOW, BITS, MASK, MAX_VALUE, SHIFT, Counts, sum_of, table_counts

CACHE_LIMIT = 100_000
"""Entries a memo may hold before it is emptied (bounds memory in long-running servers)."""
_SUM_SHIFT = BITS * MAX_VALUE
_COUNTS_MASK = (1 << _SUM_SHIFT) - 1


# ------------------------------------------------------------ maximal takes

_OPTIONS: dict[int, tuple[Counts, ...]] = {}
"""Memo: (relevant counts << 4 | value) -> the maximal takes, sorted."""


def take_options(counts: Counts, value: int) -> tuple[Counts, ...]:
    """Every maximal collection of disjoint groups, as sorted taken value counts.

    Empty when the value forms no group at all (the card creeps, R3.4).  The
    whole table is among the results exactly when the card can sweep (R4.1).
    Table values above the played value never take part, so they are masked
    off before the (memoized) search: more positions share one entry.
    """
    relevant = counts & BELOW[value]
    key = relevant << 4 | value
    got = _OPTIONS.get(key)
    if got is None:
        got = _reduced_search(relevant, value)
        if len(_OPTIONS) >= CACHE_LIMIT:
            _OPTIONS.clear()
        _OPTIONS[key] = got
    return got


_CORES: dict[int, tuple[Counts, ...]] = {}
"""Memo: (core counts << 4 | value) -> the maximal takes of the core (``_reduced_search``)."""
_USEFUL: list[list[Counts]] = [
    [
        BELOW[value]
        & ~sum(MASK << SHIFT[w] for w in range(max(1, value - low + 1), min(value, MAX_VALUE + 1)))
        for low in range(MAX_VALUE + 1)
    ]
    for value in range(MAX_VALUE + 2)
]
"""``_USEFUL[value][low]``: the counts of the values that may still be in a group of
``value`` when the smallest card is ``low`` (w with value - w < low has no partner);
the played value itself is left out too (those cards are groups of their own)."""


def _reduced_search(relevant: Counts, value: int) -> tuple[Counts, ...]:
    """``_search`` of the cards that matter only, so that more tables share one search.

    A card of the played value is a group on its own, disjoint from every
    other group: every maximal take holds all of them (R3.3).  A smaller card
    w for which value - w is below the smallest card on the table has no
    partner: it is in no group, so it is never taken and never makes a
    leftover group.  Both are left out of the search (and its memo), and the
    cards of the played value are added to every take found.
    """
    equal = relevant & (MASK << SHIFT[value]) if value <= MAX_VALUE else 0
    core = relevant - equal
    if core:
        low = (((core & -core).bit_length() - 1) >> 2) + 1  # the smallest value present
        core &= _USEFUL[value][low]
    key = core << 4 | value
    got = _CORES.get(key)
    if got is None:
        got = _search(core, value) if core else ()
        if len(_CORES) >= CACHE_LIMIT:
            _CORES.clear()
        _CORES[key] = got
    if not equal:
        return got
    if not got:
        return (equal,)
    return tuple(take + equal for take in got)


def maximal_takes(counts: Counts, value: int) -> frozenset[Counts]:
    """Every maximal collection of disjoint groups, as the taken value counts (R3.3)."""
    return frozenset(take_options(counts, value))


_BORROWS = int("1" * MAX_VALUE + "0", 16)
"""The lowest bit of every 4-bit count but the first: where a borrow would land.

``part`` is a sub-multiset of ``pool`` exactly when ``pool >= part`` and
``(pool ^ part ^ (pool - part)) & _BORROWS`` is 0 (no count had to borrow)."""
SMALL = 8
"""Up to this many relevant cards the search goes by groups (``_search_small``)."""


def _search(relevant: Counts, value: int) -> tuple[Counts, ...]:
    """The maximal takes of ``relevant`` (values <= ``value`` only); see the module doc."""
    cards: list[int] = []
    rest = relevant
    v = 0
    while rest:
        v += 1
        n = rest & MASK
        if n:
            cards += [v] * n
        rest >>= BITS
    reach = 1  # subset sums of the cards so far, as in has_group
    target = 1 << value
    limit = (target << 1) - 1
    for v in cards:
        reach |= (reach << v) & limit
    if not reach & target:
        return ()  # no group at all: the card creeps (R3.4)
    if len(cards) > SMALL:
        return _search_large(relevant, value)
    return _search_small(cards, relevant, value)


def _search_small(cards: list[int], pool: Counts, value: int) -> tuple[Counts, ...]:
    """The maximal takes of a few table cards (values, ascending): all groups, then packings.

    Every group (a sub-multiset adding up to the value) is listed by growing
    all subset sums card by card; then every packing of disjoint groups that
    leaves none of them fitting behind is a maximal take.  Packings are built
    with non-decreasing group indices, so each is visited once (R3.3).
    """
    subsets = [(0, 0)]
    for v in cards:
        u = 1 << SHIFT[v]
        subsets += [(s + v, c + u) for s, c in subsets if s + v <= value]
    groups = sorted({c for s, c in subsets if s == value})
    if not groups:
        return ()  # no group at all: the card creeps (R3.4)
    borrows = _BORROWS
    if len(groups) == 1:  # the usual case: take that group as often as it fits
        g = taken = groups[0]
        pool -= g
        while pool >= g and not (pool ^ g ^ (pool - g)) & borrows:
            pool -= g
            taken += g
        return (taken,)
    out: set[Counts] = set()
    _grow(groups, borrows, out, pool, 0, 0)
    return tuple(sorted(out))


def _grow(
    groups: list[Counts], borrows: int, out: set[Counts], pool: Counts, start: int, taken: Counts
) -> None:
    """Add to ``out`` every maximal packing that extends ``taken`` with groups from
    ``start`` on.  A module function, not a closure over itself: a closure that
    calls itself is a reference cycle, freed only by the cyclic collector, which a
    server runs rarely (app/gc_tuning.py)."""
    extended = False
    for i in range(start, len(groups)):
        g = groups[i]
        if pool >= g and not (pool ^ g ^ (pool - g)) & borrows:
            extended = True
            _grow(groups, borrows, out, pool - g, i, taken + g)
    if extended:
        return
    for i in range(start):  # an earlier group still fits: not maximal
        g = groups[i]
        if pool >= g and not (pool ^ g ^ (pool - g)) & borrows:
            return
    out.add(taken)


def _search_large(relevant: Counts, value: int) -> tuple[Counts, ...]:
    """The maximal takes of a large table: the leftover dynamic program of the module doc.

    Values are added in ascending order.  A reachable sum r only matters
    while some cards still to come could complete it to the value, that is
    while r <= value - (the next value present): the other sums are dropped
    from the key, so that ever more branches merge as the values grow.
    """
    target = 1 << value
    limit = target - 1  # sums below the value; reaching it kills the branch
    present = []
    rest = relevant
    v = 0
    while rest:
        v += 1
        if rest & MASK:
            present.append((v, rest & MASK))
        rest >>= BITS
    # Each leftover carries its own sum in the bits above the counts, so that
    # leftovers are merged by their (relevant) reachable sums alone.
    states: dict[int, list[list[int]]] = {1: [[0]]}
    total = 0
    for i, (v, n) in enumerate(present):
        total += n * v
        keep = (1 << (value - present[i + 1][0] + 1)) - 1 if i + 1 < len(present) else 1
        step = (1 << SHIFT[v]) + (v << _SUM_SHIFT)
        new: dict[int, list[list[int]]] = {}
        for reach, chunks in states.items():
            lefts = chunks[0] if len(chunks) == 1 else [x for c in chunks for x in c]
            key = reach & keep  # none of this value is left over
            got = new.get(key)
            if got is None:
                new[key] = [lefts]
            else:
                got.append(lefts)
            add = 0
            for _ in range(n):  # one more card of this value is left over
                grown = reach | (reach << v)
                if grown & target:
                    break
                reach = grown & limit
                add += step
                shifted = [x + add for x in lefts]
                key = reach & keep
                got = new.get(key)
                if got is None:
                    new[key] = [shifted]
                else:
                    got.append(shifted)
        states = new
    want = total % value
    out = []
    low = _COUNTS_MASK
    shift = _SUM_SHIFT
    for chunks in states.values():
        for chunk in chunks:
            for left in [x for x in chunk if (x >> shift) % value == want]:
                taken = relevant - (left & low)
                if _splits(taken, value):
                    out.append(taken)
    out.sort()
    return tuple(out)


_SPLITS: dict[int, bool] = {}
"""Memo: (counts << 4 | value) -> whether counts is a union of disjoint groups."""
_DEAD: list[set[int]] = [set() for _ in range(MAX_VALUE + 2)]
"""Per value: partial partitions known to fail, as (cards left << 8 | need << 4 | cap)."""


def splits_into_groups(counts: Counts, value: int) -> bool:
    """True when the multiset ``counts`` is a union of disjoint groups of ``value``."""
    if counts == 0 or sum_of(counts) % value:
        return False
    return _splits(counts, value)


def _splits(counts: Counts, value: int) -> bool:
    """Exact partition check for a non-empty ``counts`` whose sum is a multiple of ``value``."""
    key = counts << 4 | value
    got = _SPLITS.get(key)
    if got is None:
        if len(_SPLITS) >= CACHE_LIMIT:
            _SPLITS.clear()
        dead = _DEAD[value]
        if len(dead) >= CACHE_LIMIT:
            dead.clear()
        got = _SPLITS[key] = _open(counts, value, dead)
    return got


def _open(counts: Counts, value: int, dead: set[int]) -> bool:
    """Can ``counts`` be split into groups?  The largest card left opens the next group.

    The largest card must lie in some group, so trying its groups only is
    exact; a card equal to the value is a group on its own.
    """
    while counts:
        top = (counts.bit_length() - 1) >> 2  # index of the largest value present
        if top >= value:
            return False
        counts -= 1 << (BITS * top)
        need = value - top - 1
        if need:
            return _fill(counts, need, top + 1, value, dead)
    return True


def _fill(counts: Counts, need: int, cap: int, value: int, dead: set[int]) -> bool:
    """Can ``counts`` be split into groups, the open one still needing ``need``?

    A group is filled card by card in non-increasing value order (each card at
    most ``cap``), so every multiset of a group is tried once; every partial
    state that failed is remembered in ``dead`` (shared by all searches).
    """
    state = counts << 8 | need << 4 | cap
    if state in dead:
        return False
    v = need if need < cap else cap
    while v:
        shift = SHIFT[v]
        if counts >> shift & MASK:
            rest = counts - (1 << shift)
            if v == need:
                if _open(rest, value, dead):
                    return True
            elif _fill(rest, need - v, v, value, dead):
                return True
        v -= 1
    dead.add(state)
    return False


def clear_caches() -> None:
    """Forget every memoized search (for cold-cache measurements and tests)."""
    _OPTIONS.clear()
    _CORES.clear()
    _SPLITS.clear()
    for dead in _DEAD:
        dead.clear()


def can_sweep(table: Sequence[Card], value: int) -> bool:
    """True when the whole (non-empty) table splits into groups of ``value`` (R4.1, R4.5)."""
    return sweeps(table_counts(table), value)


def sweeps(counts: Counts, value: int) -> bool:
    """``can_sweep`` on value counts: the whole table is a maximal take (R4.1, R4.5).

    Cheaper than listing every maximal take: the whole table is one exactly
    when it splits into groups (nothing is left over to form another).
    """
    if not counts or counts & ~BELOW[value] or sum_of(counts) % value:
        return False
    return _splits(counts, value)
