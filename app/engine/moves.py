"""What a move is and what it is worth: the vocabulary shared by the engine and the bots.

A move (the card and the table cards it takes), its kind (creep, capture,
sweep, double sweep, FORMAT.md), and the facts that follow from the move
alone: its card points (R6.1, V3), its sweep credit (R4.2, R4.3) and the
sweep markers it leaves (R4.4).  No table or rule set is needed to answer
these, so they live apart from the generator (legal.py) that decides which
moves are allowed.  The code tables here (canonical order, hand values,
points) are built once: every simulated move reads them.

``LegalMove`` is what the engine tells the world about a move it allows: the
move and those facts together, so that no client and no bot works a rule
out again (python-chess's ``Move``, with what the move does attached).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from . import scoring
from .cards import ALL_CODES, Card, card_points, hand_value, is_card, is_picture, sort_key
from .errors import EngineError
from .view_types import LegalMoveJson

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


class LegalMove(NamedTuple):
    """A move the player to move may make, with what it does and what it is worth.

    Made by the engine only (``describe``; ``Deal.legal``), so its facts are
    the rules' own.  Two legal moves are equal when all their fields are, which
    for moves of one position means the same card and the same multiset taken.
    Immutable like a frozen dataclass, but a NamedTuple: every position's moves
    are made for the view of the seat to move, and a tuple is made fastest.
    """

    card: Card
    """The card played from hand (R3.1)."""
    take: tuple[Card, ...]
    """The table cards it captures, in canonical order; empty: it creeps (R3.4)."""
    kind: str
    """What it does: ``creep``, ``capture``, ``sweep`` or ``double_sweep`` (FORMAT.md)."""
    points: int
    """Card points it puts in the mover's pile, the played card included (R6.1, V3); 0
    for a creep."""
    sweep: int
    """Sweep credit (R4.2, R4.3): 0, 5 or 10 for the mover, and as much against the
    preceding player."""

    @property
    def move(self) -> Move:
        """The bare move (card and take), as ``Deal.apply`` and ``Deal.play_legal`` take it."""
        return new_move(Move, (self.card, self.take))

    def to_json(self) -> LegalMoveJson:
        """The wire form: one entry of the view's ``legal`` (docs/protocol.md)."""
        return {
            "card": self.card,
            "take": list(self.take),
            "kind": self.kind,
            "points": self.points,
            "sweep": self.sweep,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LegalMove:
        """Read one entry of a view's ``legal`` (``to_json``'s form).

        Trusts the facts the entry states (they came from the engine); checks
        only their form, and raises EngineError for a malformed entry.
        """
        try:
            card, take = data["card"], tuple(data["take"] or ())
            kind, points, sweep = data["kind"], data["points"], data["sweep"]
        except (KeyError, TypeError) as exc:
            raise EngineError(f"not a legal move of a view: {data!r}") from exc
        if not is_card(card) or not all(is_card(c) for c in take):
            raise EngineError(f"a legal move names an unknown card: {data!r}")
        if kind not in MOVE_KINDS:
            raise EngineError(f"unknown move kind: {kind!r}")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (points, sweep)):
            raise EngineError(f"a legal move's points and sweep must be whole numbers: {data!r}")
        return cls(card, take, kind, points, sweep)


def describe(move: Move, kind: str, nordic: bool = False) -> LegalMove:
    """``move``, allowed here and doing ``kind`` (legal.py decides both), with its facts."""
    card, take = move
    return LegalMove(card, take, kind, move_points(card, take, nordic), SWEEP_CREDIT[kind])


def _lenient_key(card: Card) -> tuple[int, str]:
    return (sort_key(card), "") if is_card(card) else (1 << 30, str(card))
