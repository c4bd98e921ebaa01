"""app/rooms/domain/events.py and event_codec.py: one dataclass per kind of event, and
one codec between them and the stored rows."""

from __future__ import annotations

import random

import pytest

from app.engine.rules import RuleSet
from app.rooms.domain import events
from app.rooms.domain.event_codec import EventRow, from_row, stored_event, to_row
from app.rooms.domain.events import (
    AutoplaySet,
    DealShown,
    DealStarted,
    EventBody,
    MatchStarted,
    OptionChanged,
    Played,
    ReadyPressed,
    RematchAccepted,
    RematchDeclined,
    RematchExpired,
    RematchOffered,
    RoomClosed,
    RoomEvent,
    SeatTaken,
)
from app.rooms.domain.state import RoomOptions, RoomState

ONE_OF_EACH: list[EventBody] = [
    SeatTaken(0, "Ann"),
    SeatTaken(1, "Bot 1", bot=True),
    MatchStarted(2, 1, 3),
    DealStarted("a" * 64, 2, 3, 1, 1, 3),
    Played(0, "9D", ("2H", "7S"), "0:abc"),
    Played(1, "KS"),
    AutoplaySet(1, True),
    ReadyPressed(0),
    DealShown(1),
    OptionChanged(False),
    RematchOffered(1, 120_000),
    RematchAccepted(0),
    RematchDeclined(1),
    RematchExpired(),
    OptionChanged(True),
    OptionChanged(None),
    RoomClosed("maintenance", "2030-01-31T12:00:00+00:00"),
]


@pytest.mark.parametrize("body", ONE_OF_EACH, ids=lambda b: type(b).__name__)
def test_every_event_round_trips_through_its_stored_row(body: EventBody) -> None:
    row = to_row(body)
    assert row.kind == body.KIND
    assert from_row(row) == body


def test_the_kinds_are_distinct_and_each_has_its_class() -> None:
    kinds = {type(body): body.KIND for body in ONE_OF_EACH}
    assert len(set(kinds.values())) == len(kinds) == 13


def test_rows_of_every_earlier_version_read_back() -> None:
    """The JSON keys the server has always written (tests/fixtures/upgrade holds such
    rows); a seat without ``bot`` is a person's, an option without a key it knows
    changes nothing."""
    assert from_row(EventRow("seat", 2, data={"name": "Cy"})) == SeatTaken(2, "Cy", False)
    assert from_row(EventRow("option", data={"bot_level": "strong"})) == OptionChanged(None)
    with pytest.raises(ValueError, match="unknown event kind"):
        from_row(EventRow("teleport"))
    with pytest.raises(ValueError, match="without a card"):
        from_row(EventRow("play", 0))
    assert stored_event(1, "ready", seat=1).at == 0, "a row without its time: none is made up"
    # rows from before a match's and a deal's row carried their table's facts
    assert from_row(EventRow("match", data={"match_no": 1, "first_dealer": 1})) == MatchStarted(
        1, 1, 0
    )
    old_deal = EventRow("deal", data={"seed": "s" * 64, "deal_no": 2})
    assert from_row(old_deal) == DealStarted("s" * 64, 0, 2, 0, 0, 0)
    assert from_row(EventRow("close", data={})) == RoomClosed("", None)
    seatless = [
        EventRow("play", card="9D"),
        EventRow("seat", data={"name": "Cy"}),
        EventRow("autoplay", data={"on": True}),
        EventRow("ready"),
    ]
    for row in seatless:
        with pytest.raises(ValueError, match=f"a stored {row.kind} event without a seat"):
            from_row(row)
    with pytest.raises(TypeError, match="not an event"):
        to_row("play")  # type: ignore[arg-type]


def test_a_state_applies_every_kind() -> None:
    """A room replays one event of every kind, in the order a log would hold them."""
    st = RoomState("r" * 32, "CODE42", 2, RuleSet(), RoomOptions(deal_pause=5))
    st.apply(stored_event(1, "seat", seat=0, data={"name": "Ann"}))
    st.apply(RoomEvent(2, SeatTaken(1, "Bo")))
    st.apply(RoomEvent(3, MatchStarted(1, 0, 2)))
    st.apply(RoomEvent(4, DealStarted("s" * 64, 1, 1, 1, 2, 2)))
    rng = random.Random(3)
    assert st.deal is not None
    while not st.deal.is_over:
        m = rng.choice(st.deal.legal_moves())
        st.apply(RoomEvent(st.seq + 1, Played(st.deal.to_move, m.card, tuple(m.take))))
    st.apply(RoomEvent(st.seq + 1, ReadyPressed(0)))
    assert st.ready == {0}
    st.apply(RoomEvent(st.seq + 1, AutoplaySet(1, True)))
    assert st.seats[1].autoplay
    st.apply(RoomEvent(st.seq + 1, OptionChanged(False)))
    assert st.options.spectator_chat is False
    st.apply(RoomEvent(st.seq + 1, RoomClosed("done", None)))
    assert st.status == "finished" and st.closed == {"reason": "done", "at": None}


def test_move_by_names_only_the_servers_own_moves() -> None:
    assert events.move_by(None) is None
    assert events.move_by("0:abc") is None
    assert events.move_by(f"srv:{events.CLOCK_MOVE}:7") == events.CLOCK_MOVE
    assert events.move_by(f"srv:{events.STANDIN_MOVE}:7") == events.STANDIN_MOVE
    assert events.move_by("srv:bot:7") is None


def test_the_numbers_of_a_stored_row_are_read_as_int_read_them_and_nothing_else() -> None:
    """The ``data`` column is JSON read back, looked at before it is used: a number
    written as its digits reads as it always did; a null or a list is refused, not
    turned into a number."""
    offer = EventRow(events.REMATCH_OFFER, 1, data={"timeout_ms": "120000"})
    assert from_row(offer) == RematchOffered(1, 120_000)
    assert from_row(EventRow(events.MATCH, data={"match_no": 2.0, "first_dealer": True})) == (
        MatchStarted(2, 1, 0)
    )
    for bad in (None, [3], {"n": 3}):
        with pytest.raises(TypeError, match="a stored event's number"):
            from_row(EventRow(events.DEAL, data={"seed": "s" * 64, "deal_no": bad}))
