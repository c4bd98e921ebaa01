"""A correspondence room's clock, vacations and deadline rows as pure functions of its
events (app/rooms/domain/correspondence.py, issue 32): the same in every process and
after a replay."""

from __future__ import annotations

from app.engine.rules import RuleSet
from app.rooms.deadline_rows import deadline_rows
from app.rooms.domain.correspondence import VACATION_DAYS, DeadlineSpec
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import AUTOPLAY, DEAL, MATCH, PLAY, SEAT, VACATION, RoomEvent
from app.rooms.domain.specs import followup
from app.rooms.domain.state import RoomOptions, RoomState
from app.rooms.settings import ServiceSettings

DAY = 1_000_000
"""The room's day in ms (``day_seconds`` 1,000): round numbers to read."""
HOUR = DAY // 24
T0 = 10_000_000_000


def corr_room(days: int = 2, players: int = 2) -> RoomState:
    options = RoomOptions(pace="correspondence", days_per_move=days, day_seconds=DAY / 1000)
    return RoomState("c" * 32, "CORR42", players, RuleSet(), options)


def ev(st: RoomState, kind: str, at: int, **fields: object) -> RoomEvent:
    return stored_event(st.seq + 1, kind, at=at, **fields)  # type: ignore[arg-type]


def started(days: int = 2) -> RoomState:
    """Both seats taken, a match and its first deal at T0 (dealer 1: seat 0 to move)."""
    st = corr_room(days)
    for seat in (0, 1):
        st.apply(ev(st, SEAT, T0, seat=seat, data={"name": f"P{seat}"}))
    st.apply(ev(st, MATCH, T0, data={"match_no": 1, "first_dealer": 1, "players": 2}))
    st.apply(ev(st, DEAL, T0, data={"seed": "s1", "deal_no": 1, "dealer": 1, "players": 2}))
    assert st.to_move == 0
    return st


def play(st: RoomState, at: int, client_id: str | None = None) -> None:
    seat = st.to_move
    assert seat is not None and st.deal is not None
    move = st.deal.legal()[0]
    st.apply(
        ev(
            st,
            PLAY,
            at,
            seat=seat,
            card=move.card,
            take=list(move.take),
            client_id=client_id or f"{seat}:m{st.seq}",
        )
    )


def test_the_movers_deadline_counts_from_the_start_of_the_turn() -> None:
    st = started(days=2)
    assert st.clock() == {"seat": 0, "deadline": T0 + 2 * DAY}
    play(st, T0 + 5_000)
    assert st.clock() == {"seat": 1, "deadline": T0 + 5_000 + 2 * DAY}
    view = st.public_view()
    assert view["options"]["pace"] == "correspondence"
    assert view["options"]["days_per_move"] == 2
    assert view["vacation"] == [{"left": VACATION_DAYS * DAY, "since": None}] * 2
    assert view["between"] is None and "day_seconds" not in view["options"]


def test_a_live_room_has_no_vacation_and_keeps_live() -> None:
    st = RoomState("l" * 32, "LIVE42", 2, RuleSet(), RoomOptions())
    assert st.public_view()["vacation"] is None
    assert st.public_view()["options"]["pace"] == "live"
    assert st.public_view()["options"]["days_per_move"] is None
    assert RoomOptions.from_stored(RoomOptions().to_stored()).pace == "live"


def test_vacation_stops_the_clock_and_restarts_it_with_the_time_it_had() -> None:
    st = started(days=2)
    log: list[RoomEvent] = []
    apply = st.apply
    st.apply = lambda e: (log.append(e), apply(e))[1]  # type: ignore[method-assign]
    st.apply(ev(st, VACATION, T0 + DAY, seat=0, data={"on": True}))
    # while on: due as if the vacation runs to its end (all five days)
    assert st.clock() == {"seat": 0, "deadline": T0 + 2 * DAY + VACATION_DAYS * DAY}
    assert st.public_view()["vacation"][0] == {"left": VACATION_DAYS * DAY, "since": T0 + DAY}
    st.apply(ev(st, VACATION, T0 + 3 * DAY, seat=0, data={"on": False}))
    # two days of vacation stood the clock still: one day of the turn is left
    assert st.clock() == {"seat": 0, "deadline": T0 + 4 * DAY}
    assert st.public_view()["vacation"][0] == {"left": 3 * DAY, "since": None}
    # a replay of the same events (another process, a restart) has the same deadline
    again = started(days=2)
    for e in log:
        again.apply(e)
    assert again.clock() == st.clock() and again.public_view()["vacation"] == st.corr.view()


def test_a_vacation_that_runs_out_lets_the_clock_go_on() -> None:
    st = started(days=1)
    st.apply(ev(st, VACATION, T0, seat=0, data={"on": True}))
    assert st.clock() == {"seat": 0, "deadline": T0 + DAY + VACATION_DAYS * DAY}
    # off long after the days ran out: all of them are used, the deadline stays
    st.apply(ev(st, VACATION, T0 + 10 * DAY, seat=0, data={"on": False}))
    assert st.clock() == {"seat": 0, "deadline": T0 + DAY + VACATION_DAYS * DAY}
    assert st.corr is not None and st.corr.vacations[0].left == 0


def test_vacation_before_the_turn_moves_only_what_is_left_of_it() -> None:
    st = started(days=2)
    play(st, T0 + 1_000)  # seat 1 to move
    st.apply(ev(st, VACATION, T0 + 2_000, seat=0, data={"on": True}))
    assert st.clock() == {"seat": 1, "deadline": T0 + 1_000 + 2 * DAY}
    play(st, T0 + DAY)  # seat 0's turn, on vacation since T0 + 2,000
    ends = T0 + 2_000 + VACATION_DAYS * DAY
    assert st.clock() == {"seat": 0, "deadline": T0 + DAY + 2 * DAY + (ends - (T0 + DAY))}
    # the seat's own move ends its vacation
    play(st, T0 + 2 * DAY, client_id="0:back")
    assert st.corr is not None and st.corr.vacations[0].since is None
    assert st.corr.vacations[0].left == VACATION_DAYS * DAY - (2 * DAY - 2_000)


def test_rows_are_the_deadline_and_the_warnings_still_to_come() -> None:
    settings = ServiceSettings()
    st = started(days=2)
    due = T0 + 2 * DAY
    assert deadline_rows(st, settings, T0) == [
        DeadlineSpec("move", st.seq, 0, due),
        DeadlineSpec("warn24", st.seq, 0, due - 24 * HOUR),
        DeadlineSpec("warn1", st.seq, 0, due - HOUR),
    ]
    # past the 24-hour warning's moment: only the one-hour warning is still to come
    assert [r.kind for r in deadline_rows(st, settings, due - 2 * HOUR)] == ["move", "warn1"]
    one_day = started(days=1)
    assert [r.kind for r in deadline_rows(one_day, settings, T0)] == ["move", "warn1"]
    live = RoomState("l" * 32, "LIVE42", 2, RuleSet(), RoomOptions())
    assert deadline_rows(live, settings, T0) is None


def test_three_clock_moves_in_a_row_hand_the_seat_to_a_bot_and_replay_the_same() -> None:
    st = started(days=1)
    at = T0
    clock_moves = 0
    while clock_moves < 3:
        at += DAY
        mover = st.to_move
        play(st, at, client_id=f"srv:clock:{st.seq}" if mover == 0 else None)
        clock_moves += mover == 0
        assert followup(st) is None or clock_moves == 3
    spec = followup(st)
    assert spec is not None and spec.body.KIND == AUTOPLAY and spec.body.seat == 0
    st.apply(ev(st, AUTOPLAY, at, seat=0, data={"on": True}))
    assert followup(st) is None and st.seats[0].autoplay
    if st.to_move == 0:  # the stand-in's turn is nobody's to be told of (My games, digest)
        rows = deadline_rows(st, ServiceSettings(), at)
        assert rows is not None and [(r.kind, r.seat, r.bot) for r in rows] == [("move", 0, True)]
    # the player comes back: the seat is theirs, and not handed to a bot again at once
    st.apply(ev(st, AUTOPLAY, at + 1, seat=0, data={"on": False}))
    assert followup(st) is None
