"""Between deals, marked moves and the time bank, on the pure room state (issue 12):
the events a room writes (``ready``, ``option``, server plays) and what the view says."""

from __future__ import annotations

import random

from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import (
    AUTOPLAY,
    DEAL,
    MATCH,
    OPTION,
    PLAY,
    READY,
    SEAT,
    SHOWN,
    DealStarted,
    move_by,
)
from app.rooms.domain.specs import everyone_ready, followup
from app.rooms.domain.state import RoomOptions, RoomState


def room(**options: object) -> RoomState:
    st = RoomState(
        "r" * 32,
        "CODE42",
        2,
        RuleSet.from_dict({"single_pack": True, "match_deals": 2}),
        RoomOptions(**options),
    )  # type: ignore[arg-type]
    for i in range(2):
        st.apply(stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"P{i}"}, at=1000))
    st.apply(stored_event(st.seq + 1, MATCH, data={"match_no": 1, "first_dealer": 0}, at=1000))
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": "s1", "deal_no": 1}, at=2000))
    return st


def play(st: RoomState, at: int, client_id: str | None = None) -> None:
    assert st.deal is not None
    seat = st.deal.to_move
    m = random.Random(st.seq).choice(st.deal.legal_moves())
    st.apply(
        stored_event(
            st.seq + 1,
            PLAY,
            seat=seat,
            card=m.card,
            take=m.take,
            client_id=client_id or f"{seat}:{st.seq}",
            at=at,
        )
    )


def finish_deal(st: RoomState) -> None:
    assert st.deal is not None
    while not st.deal.is_over:
        play(st, at=st.changed_at + 10)


def test_server_move_ids_say_who_played() -> None:
    assert move_by("srv:clock:12") == "clock"
    assert move_by("srv:standin:3") == "standin"
    assert move_by("srv:bot:3") is None, "a bot seat's own move is its own"
    assert move_by("0:abc") is None and move_by(None) is None
    assert move_by("0:srv:clock:1") is None, "a client cannot claim the clock's mark"


def test_a_paused_room_waits_between_deals_with_no_clock() -> None:
    st = room(deal_pause=30, turn_clock=20)
    assert st.clock() is not None
    finish_deal(st)
    ended = st.changed_at
    assert st.between_deals and st.clock() is None and st.to_move is None
    assert followup(st) is None, "no deal follows by itself"
    assert st.public_view()["between"] == {"ready": [], "deadline": ended + 30000}
    st.apply(stored_event(st.seq + 1, READY, seat=1, at=ended + 500))
    assert st.public_view()["between"]["ready"] == [1]
    assert st.next_deal_due() == ended + 30000, "pressing Continue does not move the deadline"
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": "s2", "deal_no": 2}, at=ended + 9000))
    assert not st.between_deals and st.ready == set()
    clock = st.clock()
    grace = int(st.options.grace * 1000)
    assert clock is not None and clock["deadline"] == ended + 9000 + grace + 20000, (
        "seat 0 had not pressed Continue: its first clock waits for its page, at most the grace"
    )
    st.apply(stored_event(st.seq + 1, SHOWN, seat=0, at=ended + 9400))
    clock = st.clock()
    assert clock is not None and clock["deadline"] == ended + 9400 + 20000, (
        "the first clock of the deal counts from when the page showed it (issue 47)"
    )


def test_without_a_pause_the_next_deal_follows_at_once() -> None:
    st = room(deal_pause=0)
    finish_deal(st)
    assert not st.between_deals
    spec = followup(st)
    assert spec is not None and isinstance(spec.body, DealStarted) and spec.body.deal_no == 2


def test_the_last_deal_of_a_match_has_no_pause() -> None:
    st = room(deal_pause=30)
    finish_deal(st)
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": "s2", "deal_no": 2}, at=5000))
    finish_deal(st)
    assert st.status == "finished" and not st.between_deals


def test_everyone_ready_counts_connected_people_only() -> None:
    st = room(deal_pause=30)
    finish_deal(st)
    assert not everyone_ready(st, [True, True])
    assert not everyone_ready(st, [True, True], ready={0}), "one of the two pressed"
    assert not everyone_ready(st, [True, True], ready={1}), "the other of the two pressed"
    assert everyone_ready(st, [True, True], ready={0, 1})
    assert everyone_ready(st, [True, False], ready={0}), "one who left is not waited for"
    st.apply(stored_event(st.seq + 1, AUTOPLAY, seat=1, data={"on": True}))
    assert everyone_ready(st, [True, True], ready={0}), "nor one a stand-in plays for"
    assert everyone_ready(st, [False, False]), "nobody at the table: nothing to wait for"


def test_server_moves_are_marked_and_told_to_their_seat() -> None:
    st = room()
    first = st.to_move
    assert first is not None
    play(st, at=3000, client_id="srv:clock:5")
    v = st.public_view()
    assert v["log"][0]["by"] == "clock" and v["last_move"]["by"] == "clock"
    told = v["seats"][first]["played_for"]
    assert [m["by"] for m in told] == ["clock"] and told[0]["card"] == v["log"][0]["card"]
    assert told[0]["deal_no"] == 1
    play(st, at=3100)  # the other seat's own move: not marked
    v = st.public_view()
    assert "by" not in v["log"][1] and "by" not in v["last_move"]
    play(st, at=3200, client_id="srv:standin:7")
    assert [m["by"] for m in st.public_view()["seats"][first]["played_for"]] == ["clock", "standin"]
    play(st, at=3300)
    play(st, at=3400)  # the first seat plays itself again: it has been told
    assert st.public_view()["seats"][first]["played_for"] == []


def test_the_time_bank_pays_for_each_turn_and_adds_the_increment() -> None:
    st = room(time_bank=60, time_increment=5)
    first = st.to_move
    assert first is not None and st.banks == [60000, 60000]
    assert st.clock() == {"seat": first, "deadline": 2000 + 60000}
    play(st, at=2000 + 12000)
    assert st.banks[first] == 60000 - 12000 + 5000
    other = st.to_move
    assert other is not None
    clock = st.clock()
    assert clock == {"seat": other, "deadline": 14000 + 60000}
    play(st, at=14000 + 70000)  # over its time: the bank is empty, then the increment
    assert st.banks[other] == 5000
    before = st.banks[first]
    play(st, at=14000 + 70000)  # at the very ms its turn began: it cost nothing
    assert st.banks[first] == before + 5000


def test_the_host_option_event_changes_spectator_chat() -> None:
    st = room()
    assert st.options.spectator_chat is True
    st.apply(stored_event(st.seq + 1, OPTION, data={"spectator_chat": False}))
    assert st.public_view()["options"]["spectator_chat"] is False
    st.apply(stored_event(st.seq + 1, OPTION, data={"bot_level": "strong"}))
    assert st.options.bot_level == "greedy", "only the options an event may change"
