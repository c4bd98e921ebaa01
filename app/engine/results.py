"""What a deal produces: the result of each move, the end award, the opening it replays from.

Plain immutable values, shared by the deal (deal.py), the views and the
records that persistence keeps.  ``LogEntry`` is the part of a move's result
that the view's log shows: what a seat's information set (infoset.py)
remembers of every play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import Card, is_card
from .errors import EngineError
from .moves import MOVE_KINDS
from .view_types import AwardJson, PlayJson


@dataclass(frozen=True, slots=True)
class Award:
    """The end-of-deal award (R5.1, R5.3): table rest plus set-aside spade pictures."""

    seat: int
    cards: tuple[Card, ...]

    def to_dict(self) -> AwardJson:
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

    def log_entry(self) -> LogEntry:
        """The public record of this play, as the view's log lists it."""
        return LogEntry(self.seat, self.card, self.kind, self.taken)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One play of the deal as every seat saw it (the view's ``log``, docs/protocol.md).

    Everything here is public at a real table (R4.4: even sweeps are marked), so
    a seat's information set keeps the whole log: it is what proves which cards
    a seat cannot hold (inference.py).
    """

    seat: int
    """Who played."""
    card: Card
    """The card played from hand."""
    kind: str
    """``creep``, ``capture``, ``sweep`` or ``double_sweep`` (FORMAT.md)."""
    taken: tuple[Card, ...]
    """The table cards it captured (not the played card); empty for a creep."""

    def to_json(self) -> PlayJson:
        """The wire form: the view's log entry."""
        return {"seat": self.seat, "card": self.card, "kind": self.kind, "taken": list(self.taken)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogEntry:
        """Read a log entry of a view; raises EngineError for one that is malformed."""
        try:
            seat, card, kind = data["seat"], data["card"], data["kind"]
            taken = tuple(data.get("taken") or ())
        except (KeyError, TypeError) as exc:
            raise EngineError(f"not a log entry: {data!r}") from exc
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise EngineError(f"a log entry's seat must be a seat number: {seat!r}")
        if not is_card(card) or not all(is_card(c) for c in taken):
            raise EngineError(f"a log entry names an unknown card: {data!r}")
        if kind not in MOVE_KINDS:
            raise EngineError(f"unknown move kind in the log: {kind!r}")
        return cls(seat, card, kind, taken)


@dataclass(slots=True)
class Opening:
    """The deal as set up, before any cleaning: what a record replays from."""

    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    to_move: int
