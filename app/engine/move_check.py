"""Naming the error of an illegal move (FORMAT.md error codes, R3, R4.1, V6, V9).

The generator (legal.py) says which moves are allowed; a player who names
another one must be told precisely why not, and the checks run in the order
FORMAT.md fixes so that the first failing one names the error.  That is a
different job from listing moves, and it runs only when a move is refused,
so it is kept out of the generator's hot path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from . import captures
from .cards import Card, hand_value, is_card, is_picture, sorted_cards
from .counts import Counts, table_counts
from .errors import InvalidCapture, MustCapture, MustSweep, NotInHand, NotMaximal
from .moves import CAPTURE, CREEP, PICTURES, sweep_kind
from .rules import RuleSet
from .takes import can_sweep, take_options


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
    taken_counts = table_counts(taking)
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
