"""What a hand value may take from a table under the rule set (R3.2, R3.3, R4.1, V9).

The capture search (captures.py) knows nothing of variants.  Under V9
(picture pairs) a J, Q or K from hand takes only the table cards of its own
rank, and a table picture is never part of a sum: both are expressed here as
a mask on the value counts before the search is asked.  The legal-move
generator, the move check and the bots' table reading all ask here, so the
rule is written once.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import captures
from .cards import Card
from .counts import BELOW, BITS, MASK, MAX_VALUE, Counts, table_counts
from .rules import RuleSet

HIGHEST_NUMERAL = 10
"""V9: table values above this are pictures (J 11, Q 12, K 13, R1.4)."""
_NUMERALS = BELOW[HIGHEST_NUMERAL]


def take_options(counts: Counts, value: int, picture_pairs: bool) -> tuple[Counts, ...]:
    """Every maximal take (R3.3) of a hand ``value`` from a table of ``counts``.

    V9: a picture takes all table cards of its own rank and nothing else; any
    other card sees only the numerals (and table aces) of the table.
    """
    if picture_pairs:
        if HIGHEST_NUMERAL < value <= MAX_VALUE:
            own = counts & (MASK << BITS * (value - 1))
            return (own,) if own else ()
        counts &= _NUMERALS
    return captures.take_options(counts, value)


def can_sweep(counts: Counts, value: int, picture_pairs: bool) -> bool:
    """True when a card of hand ``value`` takes the whole (non-empty) table (R4.1, R4.5, V9)."""
    if not counts:
        return False
    if picture_pairs:
        if HIGHEST_NUMERAL < value <= MAX_VALUE:
            return counts == counts & (MASK << BITS * (value - 1))
        if counts & ~_NUMERALS:
            return False
    return captures.sweeps(counts, value)


def sweeping_values(table: Sequence[Card], rules: RuleSet) -> tuple[int, ...]:
    """The hand values (2..14) that would take this whole table (R4.1; empty table: none)."""
    counts = table_counts(table)
    return tuple(v for v in range(2, 15) if can_sweep(counts, v, rules.picture_pairs))


def capturing_values(table: Sequence[Card], rules: RuleSet) -> tuple[int, ...]:
    """The hand values (2..14) that form at least one group on this table (R3.2, V9)."""
    counts = table_counts(table)
    return tuple(v for v in range(2, 15) if take_options(counts, v, rules.picture_pairs))
