"""A typed, read-only look at one seat's view (docs/protocol.md, "The view").

The server sends the view as JSON and changes it by patches; ``View`` wraps one
version of it for a bot to read: its seat, its hand, the table, whose turn it is and
the legal moves the server's engine worked out, so a bot needs no rule of the game to
play legally.  The dict it wraps is never changed afterwards (``apply_patch`` makes a
new one), and ``raw`` hands it on whole: the project's own bots read a view dict
(``app.bots.choose_move``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .jsontypes import (
    JsonMap,
    JsonObject,
    as_bool,
    as_int,
    as_ints,
    as_objects,
    as_opt_int,
    as_opt_str,
    as_str,
    as_strs,
    obj,
)

__all__ = ["Between", "LegalMove", "Move", "Play", "Score", "Seat", "View"]


@dataclass(frozen=True, slots=True)
class Move:
    """A play as a client sends it: a card of the hand and the table cards it takes
    (none: a creep)."""

    card: str
    take: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {"card": self.card, "take": list(self.take)}


@dataclass(frozen=True, slots=True)
class LegalMove:
    """An entry of the view's ``legal``: a move and what the engine says it does."""

    card: str
    take: tuple[str, ...]
    kind: str
    """``creep``, ``capture``, ``sweep`` or ``double_sweep``."""
    points: int
    """Card points it captures (lower totals win: capturing is bad)."""
    sweep: int
    """What it scores as a sweep: 0, 5 or 10."""

    @property
    def move(self) -> Move:
        return Move(self.card, self.take)

    @classmethod
    def from_json(cls, data: JsonMap) -> LegalMove:
        return cls(
            card=as_str(data, "card"),
            take=as_strs(data, "take"),
            kind=as_str(data, "kind"),
            points=as_int(data, "points"),
            sweep=as_int(data, "sweep"),
        )


@dataclass(frozen=True, slots=True)
class Play:
    """A play of the deal as everyone saw it (an entry of ``log``)."""

    seat: int
    card: str
    kind: str
    taken: tuple[str, ...]
    by: str | None
    """``clock`` or ``standin`` when the server played for the seat, else None."""


@dataclass(frozen=True, slots=True)
class Score:
    """A seat's running score in the deal (docs/protocol.md: the view's ``scores``)."""

    seat: int
    card_points: int
    sweeps: int
    double_sweeps: int
    sweeps_conceded: int
    total: int


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    name: str | None
    bot: bool
    autoplay: bool


@dataclass(frozen=True, slots=True)
class Between:
    """A deal is over and the room waits for Continue from these seats."""

    ready: tuple[int, ...]
    deadline: int


class View:
    """One version of a seat's view.  Properties read the JSON when asked; a field that
    is missing or of the wrong type raises ``ProtocolError``."""

    __slots__ = ("_data",)

    def __init__(self, data: JsonMap) -> None:
        self._data = data

    @property
    def raw(self) -> JsonMap:
        """The view as the server sent it (do not change it)."""
        return self._data

    @property
    def you(self) -> int | None:
        return as_opt_int(self._data, "you")

    @property
    def room_id(self) -> str:
        return as_str(self._data, "room_id")

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``finished``."""
        return as_str(self._data, "status")

    @property
    def closed(self) -> bool:
        """An operator closed the room (it is then finished for good)."""
        return self._data.get("closed") is not None

    @property
    def players(self) -> int:
        return as_int(self._data, "players")

    @property
    def dealer(self) -> int | None:
        return as_opt_int(self._data, "dealer")

    @property
    def to_move(self) -> int | None:
        return as_opt_int(self._data, "to_move")

    @property
    def match_no(self) -> int:
        return as_int(self._data, "match_no")

    @property
    def deal_no(self) -> int:
        return as_int(self._data, "deal_no")

    @property
    def deals_total(self) -> int | None:
        return as_opt_int(self._data, "deals_total")

    @property
    def hand(self) -> tuple[str, ...]:
        return as_strs(self._data, "hand")

    @property
    def table(self) -> tuple[str, ...]:
        return as_strs(self._data, "table")

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return as_ints(self._data, "hand_counts")

    @property
    def stock_count(self) -> int:
        return as_int(self._data, "stock_count")

    @property
    def legal(self) -> tuple[LegalMove, ...]:
        """Every legal move of this seat when it is to move; empty otherwise."""
        return tuple(LegalMove.from_json(m) for m in as_objects(self._data, "legal"))

    @property
    def my_turn(self) -> bool:
        """This seat is to move in a match being played, and has moves to make."""
        you = self.you
        return (
            you is not None
            and self.status == "playing"
            and self.to_move == you
            and bool(as_objects(self._data, "legal"))
        )

    @property
    def log(self) -> tuple[Play, ...]:
        return tuple(
            Play(
                seat=as_int(p, "seat"),
                card=as_str(p, "card"),
                kind=as_str(p, "kind"),
                taken=as_strs(p, "taken"),
                by=as_opt_str(p, "by"),
            )
            for p in as_objects(self._data, "log")
        )

    @property
    def scores(self) -> tuple[Score, ...]:
        """The running scores of the deal, by seat."""
        return tuple(
            Score(
                seat=as_int(s, "seat"),
                card_points=as_int(s, "card_points"),
                sweeps=as_int(s, "sweeps"),
                double_sweeps=as_int(s, "double_sweeps"),
                sweeps_conceded=as_int(s, "sweeps_conceded"),
                total=as_int(s, "total"),
            )
            for s in as_objects(self._data, "scores")
        )

    @property
    def cumulative(self) -> tuple[int, ...]:
        """Each seat's total over the finished deals of the match (lowest wins)."""
        return as_ints(self._data, "cumulative")

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match, once it is finished."""
        return as_ints(self._data, "winners")

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(
            Seat(
                seat=as_int(s, "seat"),
                name=as_opt_str(s, "name"),
                bot=as_bool(s, "bot"),
                autoplay=as_bool(s, "autoplay"),
            )
            for s in as_objects(self._data, "seats")
        )

    @property
    def between(self) -> Between | None:
        value = self._data.get("between")
        if value is None:
            return None
        data = obj(value, "'between'")
        return Between(ready=as_ints(data, "ready"), deadline=as_int(data, "deadline"))

    @property
    def rules(self) -> JsonMap:
        return obj(self._data.get("rules") or {}, "'rules'")
