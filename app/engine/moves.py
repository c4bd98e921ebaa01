"""What a move is and what it is worth: the vocabulary shared by the engine and the bots.

A move (the card and the table cards it takes), its kind (creep, capture,
sweep, double sweep, FORMAT.md), and the facts that follow from the move
alone: its card points (R6.1, V3), its sweep credit (R4.2, R4.3) and the
sweep markers it leaves (R4.4).  No table or rule set is needed to answer
these, so they live apart from the generator (legal.py) that decides which
moves are allowed.  The code tables here (canonical order, hand values,
points) are built once: every simulated move reads them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from . import scoring
from .cards import ALL_CODES, Card, card_points, hand_value, is_card, is_picture, sort_key

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
CREEPS: dict[Card, Move] = {c: Move(c, ()) for c in ALL_CODES}
"""The creep of every card, built once (a creep is the most common move)."""


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


def _lenient_key(card: Card) -> tuple[int, str]:
    return (sort_key(card), "") if is_card(card) else (1 << 30, str(card))
