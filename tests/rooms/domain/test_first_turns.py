"""app/rooms/domain/first_turns.py through the room's state: which first turns wait for
a page to show the deal (issue 47), and what a time bank pays for that wait."""

from __future__ import annotations

from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import DEAL, READY, SHOWN
from app.rooms.domain.state import RoomState
from tests.rooms.domain.test_pacing import finish_deal, play, room

GRACE = 60_000


def _second_deal(st: RoomState, ready: tuple[int, ...], at: int) -> int:
    """Deal 1 played out, ``ready`` pressed Continue, deal 2 dealt at ``at``; its first
    mover."""
    finish_deal(st)
    for seat in ready:
        st.apply(stored_event(st.seq + 1, READY, seat=seat, at=st.changed_at + 1))
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": "s2", "deal_no": 2}, at=at))
    assert st.to_move is not None
    return st.to_move


def test_the_first_deal_and_a_seat_that_pressed_continue_are_timed_from_the_deal() -> None:
    st = room(deal_pause=30, turn_clock=20)
    clock = st.clock()
    assert clock is not None and clock["deadline"] == 2000 + 20000, "no pause came before it"
    assert not st.first_turns.floor
    first = _second_deal(st, (0, 1), at=90_000)
    assert not st.first_turns.floor, "both saw the deal's end and pressed Continue"
    assert st.clock() == {"seat": first, "deadline": 90_000 + 20000}


def test_an_unseen_first_turn_waits_for_the_page_and_then_only_that_turn() -> None:
    st = room(deal_pause=30, turn_clock=20)
    first = _second_deal(st, (), at=90_000)
    assert st.clock() == {"seat": first, "deadline": 90_000 + GRACE + 20000}
    st.apply(stored_event(st.seq + 1, SHOWN, seat=first, at=95_000))
    assert st.clock() == {"seat": first, "deadline": 95_000 + 20000}
    assert st.changed_at == 90_000, "showing the deal is no move: no other clock restarts"
    play(st, at=96_000)
    second = st.to_move
    assert second is not None and second != first
    assert st.clock() == {"seat": second, "deadline": 90_000 + GRACE + 20000}, (
        "the other seat has not shown the deal either"
    )
    st.apply(stored_event(st.seq + 1, SHOWN, seat=second, at=97_000))
    assert st.clock() == {"seat": second, "deadline": 97_000 + 20000}
    play(st, at=98_000)
    assert st.clock() == {"seat": first, "deadline": 98_000 + 20000}, "later turns as usual"


def test_a_late_page_after_the_bound_changes_nothing() -> None:
    st = room(deal_pause=30, turn_clock=20)
    first = _second_deal(st, (), at=90_000)
    st.apply(stored_event(st.seq + 1, SHOWN, seat=first, at=90_000 + GRACE + 5000))
    assert st.clock() == {"seat": first, "deadline": 90_000 + GRACE + 20000}


def test_a_time_bank_pays_nothing_for_the_wait() -> None:
    st = room(deal_pause=30, time_bank=100)
    first = _second_deal(st, (), at=90_000)
    assert st.banks is not None
    bank = st.banks[first]
    st.apply(stored_event(st.seq + 1, SHOWN, seat=first, at=99_000))
    assert st.clock() == {"seat": first, "deadline": 99_000 + bank}
    play(st, at=100_000)
    assert st.banks[first] == bank - 1000, "only the second after the page showed the deal"
