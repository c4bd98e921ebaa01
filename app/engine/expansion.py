"""From value counts back to card codes: the distinct takes a player may name.

The capture search (captures.py) answers in value counts; a move names
cards.  A take of n cards of a value that lies more than n times on the
table has several spellings (different suits, twins that repeat), and only
the distinct multisets of codes are distinct moves.  This module lists them,
in canonical order, memoizing the per-value choices of one table.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from .cards import ALL_CODES, Card, sort_key, table_value
from .counts import BITS, MASK, Counts

_VALUE: dict[Card, int] = {c: table_value(c) for c in ALL_CODES}

ValueCards = dict[Any, Any]
"""Table value -> its cards (a tuple); (value, n) -> the distinct choices of n of them."""


def value_cards(table: Sequence[Card]) -> ValueCards:
    """The table's cards by table value, each as a tuple in canonical card order.

    The dict also memoizes, under (value, n) keys, the distinct choices of n
    of those cards (``expand_from`` fills them in).
    """
    by_value: ValueCards = {}
    for card in sorted(table, key=sort_key):
        v = _VALUE[card]
        by_value[v] = by_value.get(v, ()) + (card,)
    return by_value


def expand_from(by_value: ValueCards, taken: Counts) -> list[tuple[Card, ...]]:
    """All distinct multisets of card codes with values ``taken`` (see expand_takes)."""
    segments: list[list[tuple[Card, ...]]] = []  # per value: the choices, in value order
    fixed: tuple[Card, ...] = ()  # cards of values taken whole, not yet in a segment
    v = 0
    while taken:
        v += 1
        n = taken & MASK
        taken >>= BITS
        if not n:
            continue
        cards = by_value[v]
        if len(cards) == n:
            fixed += cards
            continue
        choices = by_value.get((v, n))
        if choices is None:
            # combinations of a sorted tuple come out sorted; twins repeat them
            choices = by_value[(v, n)] = list(dict.fromkeys(combinations(cards, n)))
        if fixed:
            segments.append([fixed])
            fixed = ()
        segments.append(choices)
    if fixed:
        segments.append([fixed])
    if len(segments) == 1:
        return list(segments[0])
    # One tuple concatenation per result (the last segment's loop is the
    # big one), much cheaper than joining the parts of a product.
    acc = segments[0]
    for seg in segments[1:]:
        acc = [head + tail for head in acc for tail in seg]
    return acc


def expand_takes(table: Sequence[Card], taken: Counts) -> list[tuple[Card, ...]]:
    """All distinct multisets of table card codes whose values are ``taken``.

    Each result is a tuple sorted in canonical card order (values ascend with
    ranks, so the parts of each value simply follow one another), and the
    list is in canonical lexicographic order.  When a value's cards are all
    taken there is one choice only, the common case.
    """
    return expand_from(value_cards(table), taken)
