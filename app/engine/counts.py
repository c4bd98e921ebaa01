"""Tables as value counts: the representation the capture search works on.

What a card may take (R3.2, R3.3, R4.1) depends only on how many table cards
of each table value 1..13 lie there, never on suits or twins.  So a table is
reduced to a vector of counts, packed into one integer, four bits per value
(a value occurs at most 8 times on a table of two packs): such vectors hash,
compare and subtract as cheaply as any integer.  This module holds the
packing and the questions answered on it directly (the sum, whether any
group of a value exists); the searches live in captures.py, the way back
to card codes in expansion.py.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ALL_CODES, Card, table_value

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


UNIT: dict[Card, Counts] = {c: 1 << (BITS * (table_value(c) - 1)) for c in ALL_CODES}
"""One card lying on the table, as counts."""
SHIFT: tuple[int, ...] = tuple(BITS * (v - 1) if v else 0 for v in range(MAX_VALUE + 2))
"""``SHIFT[v]``: where the count of table value v starts (0 for the unused index 0)."""
BELOW: list[Counts] = [(1 << (BITS * min(v, MAX_VALUE))) - 1 for v in range(MAX_VALUE + 2)]
"""``BELOW[v]`` masks the counts of the table values 1..v."""


def table_counts(table: Iterable[Card]) -> Counts:
    return sum(map(UNIT.__getitem__, table))


def sum_of(counts: Counts) -> int:
    """The total table value of the cards in ``counts``."""
    total = 0
    v = 1
    while counts:
        total += (counts & MASK) * v
        counts >>= BITS
        v += 1
    return total


def has_group(counts: Counts, value: int) -> bool:
    """True when some sub-multiset of ``counts`` adds up to ``value`` (subset sum)."""
    reach = 1  # bit s set: sum s reachable
    target = 1 << value
    limit = (target << 1) - 1
    counts &= BELOW[value]
    v = 1
    while counts:
        n = counts & MASK
        while n:
            reach |= (reach << v) & limit
            if reach & target:
                return True
            n -= 1
        counts >>= BITS
        v += 1
    return False
