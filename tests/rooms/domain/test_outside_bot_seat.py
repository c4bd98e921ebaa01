"""A seat taken by a bot account (issue 51) is marked as an outside bot's in the room's
state, from the event that seats it: in the view's seats and in the room summary.  The
mark is stored with the seat event only when true, so rows written before read as a
person's seat and keep their bytes."""

from __future__ import annotations

import json

import pytest

from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import EventRow, from_row, stored_event, to_row
from app.rooms.domain.events import SEAT, RoomEvent, SeatTaken
from app.rooms.domain.state import RoomOptions, RoomState


def room(players: int = 3) -> RoomState:
    return RoomState("r" * 32, "CODE42", players, RuleSet.from_dict({}), RoomOptions())


def marks(st: RoomState) -> tuple[list[bool], list[bool]]:
    """Each seat's ``outside_bot`` in a spectator's view and in the summary."""
    view = [s["outside_bot"] for s in st.view(None)["seats"]]
    summary = [s["outside_bot"] for s in st.summary()["seats"]]
    return view, summary


def test_the_seat_event_marks_an_outside_bot_and_nothing_else() -> None:
    st = room()
    st.apply(RoomEvent(1, SeatTaken(0, "Ann")))
    st.apply(RoomEvent(2, SeatTaken(1, "robo", outside_bot=True)))
    st.apply(RoomEvent(3, SeatTaken(2, "Bot 1", bot=True)))
    assert marks(st) == ([False, True, False], [False, True, False])
    seat = st.view(0)["seats"][1]
    assert seat["name"] == "robo" and seat["bot"] is False, "not one of the server's bots"
    assert not st.bot_controls(1), "the program plays its own seat: no bot of the server's"


def test_the_mark_is_shown_from_the_moment_the_seat_is_taken() -> None:
    """The seats part of the view is cached; a new seat event must rebuild it."""
    st = room(2)
    st.apply(RoomEvent(1, SeatTaken(0, "Ann")))
    assert marks(st) == ([False, False], [False, False])
    st.apply(RoomEvent(2, SeatTaken(1, "robo", outside_bot=True)))
    assert marks(st) == ([False, True], [False, True])


def test_a_seat_row_of_before_reads_as_a_persons_seat() -> None:
    st = room(2)
    st.apply(stored_event(1, SEAT, seat=0, data={"name": "Ann"}))
    st.apply(stored_event(2, SEAT, seat=1, data={"name": "Bot 1", "bot": True}))
    assert from_row(EventRow("seat", 0, data={"name": "Ann"})) == SeatTaken(0, "Ann")
    assert marks(st) == ([False, False], [False, False])


@pytest.mark.parametrize(
    ("body", "data"),
    [
        (SeatTaken(0, "Ann"), '{"name": "Ann"}'),
        (SeatTaken(1, "Bot 1", bot=True), '{"name": "Bot 1", "bot": true}'),
        (SeatTaken(2, "robo", outside_bot=True), '{"name": "robo", "outside_bot": true}'),
    ],
)
def test_the_mark_is_stored_only_when_true_and_round_trips(body: SeatTaken, data: str) -> None:
    row = to_row(body)
    assert row.kind == "seat" and row.seat == body.seat
    assert json.dumps(row.data) == data, "a seat without the mark keeps the bytes it had"
    assert from_row(row) == body
    assert from_row(EventRow(*json.loads(json.dumps(tuple(row))))) == body  # as JSON holds it


def test_a_replayed_room_has_the_same_marks() -> None:
    events = [
        RoomEvent(1, SeatTaken(0, "robo", outside_bot=True)),
        RoomEvent(2, SeatTaken(1, "Ann")),
    ]
    st = room(2)
    for ev in events:
        st.apply(ev)
    again = room(2)
    for ev in events:
        row = to_row(ev.body)
        again.apply(
            stored_event(ev.seq, row.kind, seat=row.seat, data=row.data)  # as a store reads it
        )
    assert marks(again) == marks(st) == ([True, False], [True, False])


def test_a_stored_mark_of_another_type_is_read_as_the_codec_reads_a_bool() -> None:
    """A hand-edited row (hostile or broken): the mark is read as ``bool()`` reads it,
    as ``bot`` always was; it never fails the room's replay."""
    assert from_row(EventRow("seat", 0, data={"name": "x", "outside_bot": 1})) == SeatTaken(
        0, "x", outside_bot=True
    )
    assert from_row(EventRow("seat", 0, data={"name": "x", "outside_bot": None})) == SeatTaken(
        0, "x"
    )
