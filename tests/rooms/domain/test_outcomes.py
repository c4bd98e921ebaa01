"""The domain events of a room's log (app/rooms/domain/outcomes.py): pure, one list per
event applied, the same for the same log in every process; a turn notice's event and
when it falls due; a claimed deadline warning's event."""

from __future__ import annotations

import random

from app.core.outbox import (
    DEADLINE_NEAR,
    DEAL_ENDED,
    MATCH_ENDED,
    ROOM_CLOSED,
    SEAT_CHANGED,
    TURN_CHANGED,
    NewEvent,
)
from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import AUTOPLAY, CLOSE, DEAL, MATCH, PLAY, SEAT, RoomEvent
from app.rooms.domain.match_end import finished_match, match_from_json
from app.rooms.domain.outcomes import LEFT, MOVED, deadline_near, outcomes, turn_changed
from app.rooms.domain.state import RoomOptions, RoomState

ROOM = "r" * 32


def applied(st: RoomState, ev: RoomEvent) -> list[NewEvent]:
    st.apply(ev)
    return outcomes(st, ev)


def play_deal(st: RoomState, rng: random.Random) -> list[list[NewEvent]]:
    """Every play of the deal in play, with what each produced."""
    out = []
    assert st.deal is not None
    while not st.deal.is_over:
        seat = st.deal.to_move
        m = rng.choice(st.deal.legal_moves())
        ev = stored_event(
            st.seq + 1, PLAY, seat=seat, card=m.card, take=m.take, client_id=f"{seat}:{st.seq}"
        )
        out.append(applied(st, ev))
    return out


def test_seats_deals_the_match_and_a_close_each_say_so_once() -> None:
    rules = RuleSet.from_dict({"single_pack": True, "match_deals": 2})
    st = RoomState(ROOM, "CODE42", 2, rules, RoomOptions())
    for i in range(2):
        got = applied(st, stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"P{i}"}))
        assert got == [NewEvent(ROOM, SEAT_CHANGED, {"seat": i, "change": "taken"})]
    assert (
        applied(st, stored_event(st.seq + 1, MATCH, data={"match_no": 1, "first_dealer": 0})) == []
    )
    rng = random.Random(4)
    for deal_no in (1, 2):
        assert (
            applied(
                st, stored_event(st.seq + 1, DEAL, data={"seed": f"s{deal_no}", "deal_no": deal_no})
            )
            == []
        )
        plays = play_deal(st, rng)
        assert all(p == [] for p in plays[:-1]), "only the last play of a deal says anything"
        last = plays[-1]
        assert last[0] == NewEvent(ROOM, DEAL_ENDED, {"match_no": 1, "deal_no": deal_no})
        if deal_no == 1:
            assert len(last) == 1
    # the second deal's last play ended the match: its body is the finished match
    assert [e.kind for e in last] == [DEAL_ENDED, MATCH_ENDED]
    assert match_from_json(last[1].body) == finished_match(st)
    ev = stored_event(st.seq + 1, AUTOPLAY, seat=1, data={"on": True})
    assert applied(st, ev) == [NewEvent(ROOM, SEAT_CHANGED, {"seat": 1, "change": "stand_in"})]
    ev = stored_event(st.seq + 1, AUTOPLAY, seat=1, data={"on": False})
    assert applied(st, ev) == [NewEvent(ROOM, SEAT_CHANGED, {"seat": 1, "change": "returned"})]
    ev = stored_event(st.seq + 1, CLOSE, data={"reason": "maintenance"})
    assert applied(st, ev) == [NewEvent(ROOM, ROOM_CLOSED, {})]


def started(options: RoomOptions) -> RoomState:
    """Two people seated, the first deal dealt at 1,000 ms."""
    rules = RuleSet.from_dict({"single_pack": True})
    st = RoomState(ROOM, "CODE42", 2, rules, options)
    for i in range(2):
        st.apply(stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"P{i}"}, at=500))
    st.apply(stored_event(st.seq + 1, MATCH, data={"match_no": 1, "first_dealer": 0}, at=900))
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": "s1", "deal_no": 1}, at=1_000))
    return st


def test_a_turn_notice_is_due_after_the_delay_and_only_for_a_person() -> None:
    st = started(RoomOptions())
    seat = st.to_move
    assert seat is not None
    got = turn_changed(st, 2_000, 15_000, MOVED)
    assert got == NewEvent(
        ROOM,
        TURN_CHANGED,
        {
            "seq": st.seq,
            "turn": st.seq,
            "seat": seat,
            "players": 2,
            "live": True,
            "match_no": 1,
            "deal_no": 1,
            "cause": MOVED,
        },
        due_ms=17_000,
    )
    left = turn_changed(st, 5_000, 15_000, LEFT)
    assert left is not None and left.due_ms == 20_000, "from the moment the page closed"
    st.apply(stored_event(st.seq + 1, AUTOPLAY, seat=seat, data={"on": True}, at=6_000))
    assert turn_changed(st, 6_000, 15_000, MOVED) is None, "a stand-in moves: nobody to tell"


def test_a_correspondence_turn_notice_counts_from_the_turns_start() -> None:
    st = started(RoomOptions(pace="correspondence", days_per_move=1, day_seconds=60.0))
    assert st.corr is not None
    turn_seq, turn_at = st.corr.turn_seq, st.corr.turn_at
    got = turn_changed(st, 9_000, 15_000, MOVED)
    assert got is not None and got.due_ms == turn_at + 15_000
    assert got.body["turn"] == turn_seq and got.body["live"] is False
    left = turn_changed(st, 9_000, 15_000, LEFT)
    assert left is not None and left.due_ms == 24_000, "a reload never rings"


def test_a_claimed_warning_becomes_its_event() -> None:
    assert deadline_near(ROOM, "warn24", 7, 1) == NewEvent(
        ROOM, DEADLINE_NEAR, {"seq": 7, "seat": 1, "hours": 24}
    )
    assert deadline_near(ROOM, "warn1", 7, 1).body["hours"] == 1
