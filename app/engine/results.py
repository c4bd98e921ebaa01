"""What a deal produces: the result of each move, the end award, the opening it replays from.

Plain immutable values, shared by the deal (deal.py), the views and the
records that persistence keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card


@dataclass(frozen=True, slots=True)
class Award:
    """The end-of-deal award (R5.1, R5.3): table rest plus set-aside spade pictures."""

    seat: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "cards": list(self.cards)}


class MoveResult(NamedTuple):
    """What one applied move did.

    Immutable, like a frozen dataclass, but a NamedTuple: one is made for
    every move of every simulated deal, and a tuple is made fastest.
    """

    seat: int
    card: Card
    kind: str
    """``creep``, ``capture``, ``sweep`` or ``double_sweep``."""
    taken: tuple[Card, ...]
    conceded_by: int | None = None
    """For a sweep: the preceding player who concedes it (R4.2)."""
    packet_dealt: bool = False
    """A new packet (R2.5) was dealt after this move."""
    award: Award | None = None
    """Set when this move ended the deal (R5)."""

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "card": self.card, "kind": self.kind, "taken": list(self.taken)}


@dataclass(slots=True)
class Opening:
    """The deal as set up, before any cleaning: what a record replays from."""

    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    to_move: int
