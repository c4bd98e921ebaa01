"""Take-back and hint against bots (issue 33), as pure functions of the room's events:
who may, what a take-back undoes, that the room after it is the room before the play,
and how a deal's record marks both."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, shuffled_pack
from app.rooms.domain.assist import assist_view, assisted_seat, takeback_plays
from app.rooms.domain.assist_record import deal_moves
from app.rooms.domain.event_codec import from_row, to_row
from app.rooms.domain.events import (
    AutoplaySet,
    DealStarted,
    EventBody,
    HintGiven,
    MatchStarted,
    Played,
    RoomEvent,
    SeatTaken,
    TakenBack,
)
from app.rooms.domain.options import RoomOptions, SeatState
from app.rooms.domain.record_types import StoredDeal
from app.rooms.domain.records import deal_record
from app.rooms.domain.replay import positions
from app.rooms.domain.state import RoomState

PERSON = 0


def room(players: int = 3, people: int = 1, takeback: str = "until_bot") -> RoomState:
    """A room of ``people`` people (the first seats) and bots, its first deal dealt."""
    st = RoomState(
        "r" * 32,
        "CODE42",
        players,
        RuleSet(),
        RoomOptions(takeback=takeback),  # type: ignore[arg-type]
    )
    for seat in range(players):
        add(st, SeatTaken(seat, f"P{seat}", bot=seat >= people))
    add(st, MatchStarted(1, 0, players))
    add(st, DealStarted("seed-1", 1, 1, st.match.dealer_for(1) if st.match else 0, 2, players))
    return st


def add(st: RoomState, body: EventBody, at: int = 0) -> None:
    st.apply(RoomEvent(st.seq + 1, body, at or st.seq + 1))


def play(st: RoomState, rng: random.Random) -> None:
    assert st.deal is not None and st.deal.to_move is not None
    m = rng.choice(st.deal.legal())
    add(st, Played(st.deal.to_move, m.card, m.take, f"{st.deal.to_move}:{st.seq}"))


def views(st: RoomState) -> list[Any]:
    """Every connection's view: each seat's and a spectator's."""
    return [st.view(seat) for seat in [*range(st.players), None]]


@pytest.mark.parametrize("body", [TakenBack(0, 3), HintGiven(0, "9D", ("2H", "7S"))])
def test_the_assist_events_round_trip_through_the_one_codec(body: EventBody) -> None:
    row = to_row(body)
    assert row.kind == body.KIND
    assert from_row(row) == body


def test_only_a_room_of_one_person_and_bots_has_an_assisted_seat() -> None:
    person, bot, free = SeatState("Ann"), SeatState("Bot", bot=True), SeatState()
    assert assisted_seat([person, bot, bot]) == 0
    assert assisted_seat([bot, person]) == 1
    assert assisted_seat([person, SeatState("Bo"), bot]) is None  # two people
    assert assisted_seat([person, free]) is None  # a seat still free: maybe a person
    away = SeatState("Bo", autoplay=True)  # a person a stand-in plays for is a person
    assert assisted_seat([person, away, bot]) is None
    st = room(3, people=2)
    assert all(v["assist"] is None for v in views(st))


@pytest.mark.parametrize("mode", ["until_bot", "always"])
def test_a_take_back_at_every_turn_of_a_deal_restores_the_room_exactly(mode: str) -> None:
    """At each of the person's turns: play, let the bots answer, take back (``always``;
    ``until_bot`` before the bots): every connection's view is what it was before the
    play, packets dealt by it undone too.  Then the deal goes on and ends as any deal."""
    st = room(3, takeback=mode)
    rng = random.Random(7)
    assert st.deal is not None
    checked = 0
    while not st.deal.is_over:
        if st.deal.to_move != PERSON:
            play(st, rng)
            continue
        before, moves_before = views(st), list(st.deal.moves)
        again = checked > 0 and mode == "always"  # until_bot: the bots have played since
        assert st.view(PERSON)["assist"] == {"seat": PERSON, "takeback": again, "hint": True}
        play(st, rng)
        if st.deal.is_over:
            assert takeback_plays(st.deal, True, PERSON, mode) is None  # a scored deal stays
            break
        plays = 1
        if mode == "always":
            while st.deal.to_move not in (PERSON, None) and len(st.deal.moves) < 2 + len(
                moves_before
            ):
                play(st, rng)
                plays += 1
        assert takeback_plays(st.deal, True, PERSON, mode) == plays
        add(st, TakenBack(PERSON, plays))
        assert views(st) == before
        assert st.deal.moves == moves_before
        checked += 1
        play(st, rng)  # and play on
    assert checked >= 5 and st.previous_deal is not None
    assert sum(st.previous_deal["totals"]) == 42


def test_until_bot_refuses_once_a_bot_has_played_and_always_goes_back_further() -> None:
    for mode, expected in (("until_bot", None), ("always", 3), ("off", None)):
        st = room(3, takeback=mode)
        rng = random.Random(3)
        assert st.deal is not None
        assert takeback_plays(st.deal, True, PERSON, mode) is None  # nothing played yet
        while st.deal.to_move != PERSON:
            play(st, rng)
        play(st, rng)  # the person's
        assert takeback_plays(st.deal, True, PERSON, mode) == (1 if mode != "off" else None)
        play(st, rng)  # two bots
        play(st, rng)
        assert st.deal.to_move == PERSON
        assert takeback_plays(st.deal, True, PERSON, mode) == expected
        assist = assist_view(st.seats, st.options, True, st.deal)
        assert assist == {"seat": PERSON, "takeback": expected is not None, "hint": True}


def test_a_hint_is_noted_but_no_move_and_the_clock_runs_on() -> None:
    st = room(2)
    st.options.turn_clock = 20
    assert st.deal is not None
    while st.deal.to_move != PERSON:
        play(st, random.Random(1))
    clock, before = st.clock(), views(st)
    m = st.deal.legal()[0]
    add(st, HintGiven(PERSON, m.card, m.take), at=st.changed_at + 5_000)
    assert st.hint == HintGiven(PERSON, m.card, m.take)
    assert st.clock() == clock  # asking cost the person no time and gave them none
    assert views(st) == before  # nobody's view shows the hint (it names a card in hand)
    play(st, random.Random(2))
    assert st.hint is None


def test_a_take_back_forgets_a_stand_in_play_it_undid() -> None:
    st = room(2)
    rng = random.Random(5)
    assert st.deal is not None
    while st.deal.to_move != PERSON:
        play(st, rng)
    add(st, AutoplaySet(PERSON, True))
    m = st.deal.legal()[0]
    add(st, Played(PERSON, m.card, m.take, f"srv:standin:{st.seq}"))
    assert st.view(None)["seats"][PERSON]["played_for"] != []
    add(st, AutoplaySet(PERSON, False))
    add(st, TakenBack(PERSON, 1))
    assert st.view(None)["seats"][PERSON]["played_for"] == []
    assert "by" not in (st.view(None)["log"] or [{}])[-1]


def test_the_record_keeps_the_plays_that_stand_and_marks_each_assist() -> None:
    a, b, c, d = (Played(0, "2H"), Played(1, "3H"), Played(0, "4H"), Played(1, "5S"))
    moves, marks = deal_moves(
        [a, b, HintGiven(0, "4H", ("2H",)), c, TakenBack(0, 1), Played(0, "9D"), d]
    )
    assert [m["card"] for m in moves] == ["2H", "3H", "9D", "5S"]
    assert marks == [
        {"index": 2, "kind": "hint", "seat": 0, "card": "4H", "take": ["2H"]},
        {"index": 2, "kind": "takeback", "seat": 0, "moves": [{"card": "4H", "take": []}]},
    ]
    moves, marks = deal_moves([a, b, c, d, TakenBack(0, 2)])
    assert [m["card"] for m in moves] == ["2H", "3H"] and marks[0]["index"] == 2
    assert [m["card"] for m in marks[0]["moves"]] == ["4H", "5S"]


def test_a_deal_with_take_backs_has_a_record_that_replays_from_its_seed() -> None:
    """The record lists the plays that stand: dealt from the seed, they finish the deal
    with the scores the room gave it; the taken-back plays are in ``assists``."""
    st = room(2, takeback="always")
    rng = random.Random(11)
    assert st.deal is not None
    events: list[Played | TakenBack | HintGiven] = []
    taken_back: set[int] = set()  # once at each position, every other turn of the person
    while not st.deal.is_over:
        if st.deal.to_move == PERSON and len(st.deal.moves) % 3 == 0:
            m = st.deal.legal()[0]
            add(st, HintGiven(PERSON, m.card, m.take))
            events.append(HintGiven(PERSON, m.card, m.take))
        mover = st.deal.to_move
        play(st, rng)
        last = st.deal.results[-1]
        events.append(Played(mover, last.card, last.taken, f"{mover}:x"))
        at = len(st.deal.moves)
        if mover == PERSON and not st.deal.is_over and at % 4 in (1, 2) and at not in taken_back:
            taken_back.add(at)
            add(st, TakenBack(PERSON, 1))
            events.append(TakenBack(PERSON, 1))
    moves, marks = deal_moves(events)
    assert [(m["card"], tuple(m["take"])) for m in moves] == [tuple(x) for x in st.deal.moves]
    assert {m["kind"] for m in marks} == {"hint", "takeback"}
    stored: StoredDeal = {
        "room_id": st.room_id,
        "match_no": 1,
        "deal_no": 1,
        "rules": st.rules.to_dict(),
        "pack": shuffled_pack("seed-1", 2),
        "dealer": st.deal.dealer,
        "players": 2,
        "seed": "seed-1",
        "commitment": commitment("seed-1"),
        "scores": st.deal.scores_list(),
        "totals": st.deal.totals(),
        "moves": moves,
        "assists": marks,
    }
    record = deal_record(stored)
    assert record["assists"] == marks
    replayed = Deal.from_pack(st.rules, 2, record["dealer"], shuffled_pack(record["seed"], 2))
    for m in record["moves"]:
        replayed.apply(m["card"], m["take"])
    assert replayed.is_over and replayed.totals() == st.previous_deal["totals"]  # type: ignore[index]
    assert len(positions(stored)) == len(moves) + 1
