"""How an event is stored, both ways: one codec for the state, the stores and the rows.

A stored event is a row: its ``kind``, the seat, card, take and client id that a
play has as columns of their own (so that a room's plays and their ids are
indexed), and the rest as JSON ``data``.  The row is derived from the event's
dataclass (issue 48): a field named like a column goes to that column, every other
field to ``data`` under its own name, in the order the class declares them; read
back, each value is checked against its field's type (``int``, ``str``, ``bool`` or
one of them or None; a field of any other type fails when this module is imported).
So a plain new kind of event needs no case here.

Rows written by every earlier version of the server read back the same way
(tests/migrations, tests/rooms/domain/test_event_codec.py: every kind encodes to the
bytes the hand-written codec wrote): the JSON keys are the fields' names, as the
server has always written them, and the two habits of older rows are kept as data
below, ``WHEN_MISSING`` and ``OMITTED_WHEN_FALSE``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, fields
from types import NoneType, UnionType
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, get_args, get_type_hints

from app.core.json import JsonObject, JsonValue

from .events import CLOSE, DEAL, MATCH, PLAY, SEAT, EventBody, Played, RoomEvent


class EventRow(NamedTuple):
    """An event as the ``events`` table holds it (less room, seq and times).  A tuple:
    one is made for every move written, and a tuple is made fastest."""

    kind: str
    seat: int | None = None
    card: str | None = None
    take: tuple[str, ...] | None = None
    client_id: str | None = None
    data: JsonObject | None = None

    def json_data(self) -> JsonObject:
        return dict(self.data) if self.data else {}


WHEN_MISSING: dict[tuple[str, str], JsonValue] = {
    (MATCH, "players"): 0,
    (DEAL, "match_no"): 0,
    (DEAL, "dealer"): 0,
    (DEAL, "copies"): 0,
    (DEAL, "players"): 0,
    (CLOSE, "reason"): "",
}
"""What a key that rows of older versions lack reads as, where the field has no default
of its own (a match's and a deal's table facts were added later; 0: not known)."""

OMITTED_WHEN_FALSE = frozenset({(SEAT, "bot"), (SEAT, "outside_bot")})
"""Keys written only when true (a seat's row says ``bot`` only for a built-in bot's seat,
``outside_bot`` only for a bot account's), so rows of seats without them keep their bytes."""

COLUMNS = ("seat", "card", "take", "client_id")


def _int(value: JsonValue) -> int:
    """A number of a stored event's JSON, as ``int()`` reads it (a row written by any
    version: a number, or its digits); TypeError for anything else."""
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"a stored event's number is {value!r}")


Reader = Callable[[JsonValue], object]
READERS: dict[object, Reader] = {int: _int, str: str, bool: bool}


def _reader(owner: str, hint: object) -> Reader:
    """How a ``data`` value of a field typed ``hint`` is read back (None stays None for
    an optional field)."""
    args = get_args(hint) if isinstance(hint, UnionType) else ()
    if len(args) == 2 and NoneType in args:
        (inner,) = [a for a in args if a is not NoneType]
        read = _reader(owner, inner)
        return lambda value: None if value is None else read(value)
    if hint not in READERS:
        raise TypeError(f"{owner}: no stored form for a field of type {hint!r}")
    return READERS[hint]


class Stored(Protocol):
    """A kind of event as the codec sees it: a dataclass with its ``KIND``."""

    KIND: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


E = TypeVar("E", bound=Stored)


@dataclass(frozen=True, slots=True)
class Shape(Generic[E]):
    """How one kind of event is stored: which of its fields are columns, which ``data``
    keys (with their readers), and the class to make back."""

    kind: str
    make: Callable[..., E]
    columns: tuple[str, ...]
    data: tuple[tuple[str, Reader, object], ...]
    """Each key, how it is read, and what it reads as when missing (MISSING: a KeyError)."""

    def encode(self, body: E) -> EventRow:
        cols = {name: getattr(body, name) for name in self.columns}
        data: JsonObject | None = None
        if self.data:
            data = {}
            for name, _, _ in self.data:
                value = getattr(body, name)
                if value is False and (self.kind, name) in OMITTED_WHEN_FALSE:
                    continue
                data[name] = value
        return EventRow(self.kind, data=data, **cols)

    def decode(self, row: EventRow) -> E:
        values: dict[str, object] = {}
        for name in self.columns:
            values[name] = _column(row, name)
        stored = row.data or {}
        for name, read, missing in self.data:
            if name in stored:
                values[name] = read(stored[name])
            elif missing is MISSING:
                raise KeyError(name)
            else:
                values[name] = missing
        return self.make(**values)


def _column(row: EventRow, name: str) -> object:
    if name == "seat":
        if row.seat is None:
            raise ValueError(f"a stored {row.kind} event without a seat")
        return row.seat
    if name == "card":
        if row.card is None:
            raise ValueError(f"a stored {row.kind} without a card")
        return row.card
    if name == "take":
        return tuple(row.take or ())
    return row.client_id


def shape_of(cls: type[E]) -> Shape[E]:
    """The stored form of a kind of event, from its dataclass's fields; TypeError for a
    field that has none (only a column may hold a tuple of cards)."""
    hints = get_type_hints(cls)
    kind: str = cls.KIND
    columns: list[str] = []
    data: list[tuple[str, Reader, object]] = []
    for f in fields(cls):
        owner = f"{cls.__name__}.{f.name}"
        if f.name in COLUMNS:
            columns.append(f.name)
            continue
        read = _reader(owner, hints[f.name])
        missing = WHEN_MISSING.get((kind, f.name), f.default)
        if missing is MISSING and (kind, f.name) in OMITTED_WHEN_FALSE:
            raise TypeError(f"{owner}: omitted when false, so it needs a default")
        data.append((f.name, read, missing))
    return Shape(kind, cls, tuple(columns), tuple(data))


SHAPES: dict[type[EventBody], Shape[EventBody]] = {
    cls: shape_of(cls) for cls in get_args(EventBody)
}
KINDS: dict[str, Shape[EventBody]] = {shape.kind: shape for shape in SHAPES.values()}
assert len(KINDS) == len(SHAPES), "two kinds of event stored under one name"


def to_row(body: EventBody) -> EventRow:
    """The row an event is stored as."""
    if type(body) is Played:  # nearly every event: no shape to look up
        return EventRow(PLAY, body.seat, body.card, body.take, body.client_id)
    shape = SHAPES.get(type(body))
    if shape is None:
        raise TypeError(f"not an event: {body!r}")
    return shape.encode(body)


def from_row(row: EventRow) -> EventBody:
    """The event a stored row holds; ValueError for a kind this server does not know."""
    if row.kind == PLAY:
        if row.card is None:
            raise ValueError("a stored play without a card")
        if row.seat is None:
            raise ValueError("a stored play event without a seat")
        return Played(row.seat, row.card, tuple(row.take or ()), row.client_id)
    shape = KINDS.get(row.kind)
    if shape is None:
        raise ValueError(f"unknown event kind {row.kind!r}")
    return shape.decode(row)


def stored_event(
    seq: int,
    kind: str,
    *,
    seat: int | None = None,
    card: str | None = None,
    take: tuple[str, ...] | list[str] = (),
    client_id: str | None = None,
    data: JsonObject | None = None,
    at: int = 0,
) -> RoomEvent:
    """The event of a stored row's columns (a store reading its rows, a test writing
    what a store would hold)."""
    row = EventRow(kind, seat, card, tuple(take), client_id, data)
    return RoomEvent(seq, from_row(row), at)
