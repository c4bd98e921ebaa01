"""app/rooms/domain/event_codec.py: a stored row is derived from its event's fields
(issue 48), and every kind of event encodes to exactly the row, JSON bytes included, that
the hand-written codec of every earlier version wrote (PostgreSQL and SQLite hold such
rows), and reads back."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from types import NoneType, UnionType
from typing import Any, ClassVar, get_args, get_type_hints

import pytest

from app.rooms.domain import event_codec
from app.rooms.domain.event_codec import EventRow, from_row, to_row
from app.rooms.domain.events import (
    AutoplaySet,
    DealShown,
    DealStarted,
    EventBody,
    HintGiven,
    MatchStarted,
    OptionChanged,
    Played,
    ReadyPressed,
    RematchAccepted,
    RematchDeclined,
    RematchExpired,
    RematchOffered,
    RoomClosed,
    SeatTaken,
    TakenBack,
    VacationSet,
)

SEED = "a" * 64
AT = "2030-01-31T12:00:00+00:00"

BEFORE: list[tuple[EventBody, tuple[object, ...], str]] = [
    # (event, its row as the hand-written codec wrote it, json.dumps of the row's data)
    (SeatTaken(0, "Ann"), ("seat", 0, None, None, None, {"name": "Ann"}), '{"name": "Ann"}'),
    (
        SeatTaken(1, "Bot 1", bot=True),
        ("seat", 1, None, None, None, {"name": "Bot 1", "bot": True}),
        '{"name": "Bot 1", "bot": true}',
    ),
    (
        MatchStarted(2, 1, 3),
        ("match", None, None, None, None, {"match_no": 2, "first_dealer": 1, "players": 3}),
        '{"match_no": 2, "first_dealer": 1, "players": 3}',
    ),
    (
        DealStarted(SEED, 2, 3, 1, 1, 3),
        (
            "deal",
            None,
            None,
            None,
            None,
            {"seed": SEED, "match_no": 2, "deal_no": 3, "dealer": 1, "copies": 1, "players": 3},
        ),
        f'{{"seed": "{SEED}", "match_no": 2, "deal_no": 3, '
        '"dealer": 1, "copies": 1, "players": 3}',
    ),
    (
        Played(0, "9D", ("2H", "7S"), "0:abc"),
        ("play", 0, "9D", ("2H", "7S"), "0:abc", None),
        "null",
    ),
    (Played(1, "KS"), ("play", 1, "KS", (), None, None), "null"),
    (AutoplaySet(1, True), ("autoplay", 1, None, None, None, {"on": True}), '{"on": true}'),
    (VacationSet(0, False), ("vacation", 0, None, None, None, {"on": False}), '{"on": false}'),
    (ReadyPressed(0), ("ready", 0, None, None, None, None), "null"),
    (DealShown(1), ("shown", 1, None, None, None, None), "null"),
    (
        OptionChanged(False),
        ("option", None, None, None, None, {"spectator_chat": False}),
        '{"spectator_chat": false}',
    ),
    (
        OptionChanged(None),
        ("option", None, None, None, None, {"spectator_chat": None}),
        '{"spectator_chat": null}',
    ),
    (
        RematchOffered(1, 120_000),
        ("rematch_offer", 1, None, None, None, {"timeout_ms": 120000}),
        '{"timeout_ms": 120000}',
    ),
    (RematchAccepted(0), ("rematch_accept", 0, None, None, None, None), "null"),
    (RematchDeclined(1), ("rematch_decline", 1, None, None, None, None), "null"),
    (RematchExpired(), ("rematch_expire", None, None, None, None, None), "null"),
    (
        RoomClosed("maintenance", AT),
        ("close", None, None, None, None, {"reason": "maintenance", "at": AT}),
        f'{{"reason": "maintenance", "at": "{AT}"}}',
    ),
    (
        RoomClosed("", None),
        ("close", None, None, None, None, {"reason": "", "at": None}),
        '{"reason": "", "at": null}',
    ),
    (TakenBack(2, 3), ("takeback", 2, None, None, None, {"plays": 3}), '{"plays": 3}'),
    (HintGiven(0, "TS", ("5C",)), ("hint", 0, "TS", ("5C",), None, None), "null"),
    (HintGiven(1, "2C"), ("hint", 1, "2C", (), None, None), "null"),
]


def test_every_kind_of_event_has_a_row_of_before() -> None:
    assert {type(body) for body, _, _ in BEFORE} == set(get_args(EventBody))


@pytest.mark.parametrize(("body", "row", "data"), BEFORE, ids=lambda v: type(v).__name__)
def test_each_kind_encodes_to_the_bytes_it_did_and_reads_back(
    body: EventBody, row: tuple[object, ...], data: str
) -> None:
    stored = to_row(body)
    assert tuple(stored) == row
    assert json.dumps(stored.data) == data, "the JSON keys, their order and values"
    assert from_row(EventRow(*row)) == body  # type: ignore[arg-type]
    assert from_row(stored) == body


def sample(kind: type[Any]) -> Any:
    """An event of ``kind`` with a value for each field, from its type alone (so that a
    new kind is tried here without a sample written for it)."""
    hints = get_type_hints(kind)
    values: dict[str, object] = {}
    for f in fields(kind):
        hint = hints[f.name]
        if isinstance(hint, UnionType):
            (hint,) = [a for a in get_args(hint) if a is not NoneType]
        values[f.name] = {int: 7, str: "9D", bool: True}.get(hint, ("2H",))
    return kind(**values)


@pytest.mark.parametrize("kind", get_args(EventBody), ids=lambda k: k.__name__)
def test_every_kind_round_trips_with_no_case_of_its_own(kind: type[Any]) -> None:
    body = sample(kind)
    row = to_row(body)
    assert row.kind == kind.KIND
    assert from_row(row) == body
    json.dumps(row.data)  # JSON as it is


def test_a_plain_event_is_stored_by_its_fields() -> None:
    @dataclass(frozen=True, slots=True)
    class Resigned:
        KIND: ClassVar[str] = "resigned"
        seat: int
        reason: str
        at: str | None = None

    shape = event_codec.shape_of(Resigned)
    row = shape.encode(Resigned(2, "tired"))
    assert tuple(row) == ("resigned", 2, None, None, None, {"reason": "tired", "at": None})
    assert shape.decode(EventRow("resigned", 2, data={"reason": "tired"})) == Resigned(2, "tired")
    with pytest.raises(ValueError, match="a stored resigned event without a seat"):
        shape.decode(EventRow("resigned", data={"reason": "tired"}))


def test_a_field_with_no_stored_form_is_refused_when_the_codec_is_built() -> None:
    @dataclass(frozen=True, slots=True)
    class Odd:
        KIND: ClassVar[str] = "odd"
        cards: list[str]

    with pytest.raises(TypeError, match="Odd.cards"):
        event_codec.shape_of(Odd)
