"""The room as a pure state machine over its events (no database, no sockets)."""

from __future__ import annotations

import random

import pytest

from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import AUTOPLAY, CLOSE, DEAL, MATCH, OPTION, PLAY, SEAT, RoomEvent
from app.rooms.domain.state import FINISHED, PLAYING, WAITING, RoomOptions, RoomState


def room(players: int = 2, **rules: object) -> RoomState:
    return RoomState("r" * 32, "CODE42", players, RuleSet.from_dict(rules), RoomOptions())


def seat_all(st: RoomState) -> None:
    for i in range(st.players):
        st.apply(stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"P{i}"}))


def start(st: RoomState, first_dealer: int = 0) -> None:
    st.apply(
        stored_event(
            st.seq + 1, MATCH, data={"match_no": st.match_no + 1, "first_dealer": first_dealer}
        )
    )
    next_deal(st)


def next_deal(st: RoomState) -> None:
    st.apply(
        stored_event(st.seq + 1, DEAL, data={"seed": f"seed-{st.seq}", "deal_no": st.deal_no + 1})
    )


def play_deal(st: RoomState, rng: random.Random) -> None:
    while not st.deal.is_over:
        m = rng.choice(st.deal.legal_moves())
        st.apply(
            stored_event(
                st.seq + 1,
                PLAY,
                seat=st.deal.to_move,
                card=m.card,
                take=m.take,
                client_id=f"{st.seq}",
            )
        )


def test_a_room_waits_until_every_seat_is_taken():
    st = room(3)
    st.apply(stored_event(1, SEAT, seat=0, data={"name": "Ann"}))
    assert st.status == WAITING and st.free_seat() == 1 and not st.all_seated
    assert st.view(0)["to_move"] is None and st.view(0)["hand"] == []


def test_a_waiting_room_shows_its_seats_and_no_deal_yet() -> None:
    st = room(3)
    st.apply(stored_event(1, SEAT, seat=0, data={"name": "Ann"}))
    st.apply(stored_event(2, SEAT, seat=2, data={"name": "Bot 2", "bot": True}))
    v = st.view(None)
    seats = [(s["seat"], s["name"], s["bot"], s["autoplay"]) for s in v["seats"]]
    assert seats == [(0, "Ann", False, False), (1, None, False, False), (2, "Bot 2", True, False)]
    assert st.bot_controls(2) and not st.bot_controls(0)
    assert v["match_no"] == 0 and v["commitment"] is None and v["previous_deal"] is None
    assert v["banks"] is None and v["between"] is None and v["clock"] is None
    assert st.summary()["deal_no"] == 0 and st.summary()["match_no"] == 0


def test_events_must_follow_without_gaps():
    st = room()
    with pytest.raises(ValueError, match="event seq 2 does not follow 0"):
        st.apply(stored_event(2, SEAT, seat=0, data={"name": "Ann"}))


def test_a_match_rotates_the_dealer_and_finishes_after_n_deals():
    """R6.4, R2.1: n deals for n players, the deal passing to the left."""
    st = room(2)
    seat_all(st)
    start(st, first_dealer=1)
    rng = random.Random(1)
    dealers = []
    while True:
        dealers.append(st.deal.dealer)
        play_deal(st, rng)
        assert st.previous_deal is not None and sum(st.previous_deal["totals"]) == 42
        if st.status == FINISHED:
            break
        assert st.needs_next_deal()
        next_deal(st)
    assert dealers == [1, 0]
    assert st.view(None)["winners"] == st.match.winners()
    assert st.summary()["cumulative"] == st.match.cumulative


def test_a_finished_deal_is_told_whole_to_the_view_and_to_persistence() -> None:
    """What ``previous_deal`` shows and the write path stores (``finished_deal``)."""
    st = room(3, match_deals=2)
    seat_all(st)
    start(st)
    deal, seed = st.deal, st.seed
    assert deal is not None and seed is not None
    play_deal(st, random.Random(7))
    assert deal.award is not None
    want = {
        "deal_no": 1,
        "scores": deal.scores_list(),
        "totals": deal.totals(),
        "award": deal.award.to_dict(),
        "seed": seed,
        "commitment": st.commitment,
        "total_points": deal.total_points(),
    }
    assert st.previous_deal == want and st.finished_deal == want
    assert st.view(None)["previous_deal"] == want
    assert st.finished_deal is not st.previous_deal, "persistence gets its own copy"
    st.apply(stored_event(st.seq + 1, SEAT, seat=0, data={"name": "P0"}))
    assert st.finished_deal is None and st.previous_deal == want, "told once, shown on"


def test_a_bot_moves_its_delay_after_the_latest_event() -> None:
    st = RoomState("r" * 32, "CODE42", 2, RuleSet.from_dict({}), RoomOptions(bot_delay=1.5))
    st.apply(stored_event(1, SEAT, seat=0, data={"name": "Ann"}, at=40_000))
    assert st.bot_due() == 41_500


def test_a_rematch_starts_a_new_match_with_the_same_seats():
    st = room(2, match_deals=1)
    seat_all(st)
    start(st)
    play_deal(st, random.Random(2))
    assert st.status == FINISHED
    start(st)
    assert st.status == PLAYING and st.match_no == 2 and st.deal_no == 1
    assert st.match.cumulative == [0, 0] and [s.name for s in st.seats] == ["P0", "P1"]


def test_views_show_only_the_own_hand_and_legal_moves_to_the_mover():
    st = room(4)
    seat_all(st)
    start(st)
    mover = st.deal.to_move
    for seat in range(4):
        v = st.view(seat)
        assert sorted(v["hand"]) == sorted(st.deal.hands[seat])
        assert bool(v["legal"]) == (seat == mover)
        assert "hands" not in v and "stock" not in v
    spectator = st.view(None)
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["you"] is None
    assert spectator["commitment"] and "seed" not in spectator


def test_autoplay_marks_a_seat_played_by_a_bot():
    st = room(2)
    seat_all(st)
    start(st)
    st.apply(stored_event(st.seq + 1, AUTOPLAY, seat=1, data={"on": True}))
    assert st.bot_controls(1) and st.view(0)["seats"][1]["autoplay"]
    st.apply(stored_event(st.seq + 1, AUTOPLAY, seat=1, data={"on": False}))
    assert not st.bot_controls(1)


def test_a_play_by_the_wrong_seat_is_rejected():
    st = room(2)
    seat_all(st)
    start(st)
    wrong = 1 - st.deal.to_move
    card = st.deal.hands[wrong][0]
    with pytest.raises(ValueError, match=f"play event for seat {wrong} but {1 - wrong} is to"):
        st.apply(stored_event(st.seq + 1, PLAY, seat=wrong, card=card))


class Recorder(RoomState):
    """A room that keeps the events applied to it, to replay them elsewhere."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.log: list[RoomEvent] = []

    def apply(self, ev: RoomEvent) -> None:
        super().apply(ev)
        self.log.append(ev)


def test_a_closed_room_is_finished_as_it_stands_and_replays_the_same() -> None:
    st = Recorder("r" * 32, "CODE42", 2, RuleSet(), RoomOptions())
    seat_all(st)
    start(st)
    rng = random.Random(1)
    for _ in range(5):
        m = rng.choice(st.deal.legal_moves())
        st.apply(stored_event(st.seq + 1, PLAY, seat=st.deal.to_move, card=m.card, take=m.take))
    table = list(st.deal.table)
    st.apply(
        stored_event(
            st.seq + 1, CLOSE, data={"reason": "maintenance", "at": "2030-01-31T12:00:00+00:00"}
        )
    )
    assert st.status == FINISHED and st.to_move is None
    assert st.closed == {"reason": "maintenance", "at": "2030-01-31T12:00:00+00:00"}
    view = st.view(0)
    assert view["closed"] == st.closed and view["legal"] == [] and view["table"] == table
    assert st.summary()["closed"] == st.closed
    again = RoomState("r" * 32, "CODE42", 2, RuleSet(), RoomOptions())
    for ev in st.log:
        again.apply(ev)
    assert again.view(0) == view and again.view(None) == st.view(None)


def test_a_waiting_room_can_be_closed_too() -> None:
    st = room(3)
    st.apply(stored_event(1, SEAT, seat=0, data={"name": "Ann"}))
    st.apply(stored_event(2, CLOSE, data={"reason": "", "at": None}))
    assert st.status == FINISHED and st.match is None and st.view(0)["closed"]["reason"] == ""


def test_a_tie_calls_a_tie_break_deal_that_the_room_plays():
    """V10 through a room: a 21-21 tie after the one deal of the match (V8) calls one
    more deal, dealt by the next dealer; the match is finished after it."""
    st = room(2, tie_break_deal=True, match_deals=1)
    seat_all(st)
    start(st, first_dealer=0)
    play_deal(st, random.Random(74))  # a seed whose deal ends 21-21
    assert st.match.deal_totals == [[21, 21]]
    assert st.status == PLAYING and st.match.tie_break
    assert st.public_view()["deals_total"] == 2
    next_deal(st)
    assert st.deal_no == 2 and st.deal.dealer == 1
    play_deal(st, random.Random(1))
    assert st.status == FINISHED
    assert st.match.winners()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_private_parts_are_reused_only_while_they_are_what_they_were(players: int) -> None:
    """``private_view`` hands back the very object of the last call when a seat's part
    cannot have changed; at every seq of whole deals each seat's part must still be
    exactly what the engine's own private_view builds from scratch, and a seat whose
    hand changed or whose turn came must get a new one."""
    from app.engine.views import private_view

    st = room(players)
    seat_all(st)
    start(st)
    rng = random.Random(players)
    held = {seat: st.private_view(seat) for seat in range(players)}
    reused = moves = 0
    for _ in range(2):
        while not st.deal.is_over:
            m = rng.choice(st.deal.legal_moves())
            st.apply(
                stored_event(
                    st.seq + 1, PLAY, seat=st.deal.to_move, card=m.card, take=m.take,
                    client_id=f"{st.seq}",
                )
            )  # fmt: skip
            moves += 1
            for seat in range(players):
                part = st.private_view(seat)
                assert part == private_view(st.deal, seat, playing=st.status == PLAYING)
                if part is held[seat]:
                    reused += 1
                    assert seat != st.deal.to_move or st.deal.is_over
                held[seat] = part
        if st.status == PLAYING:
            next_deal(st)
    # A move changes the mover's hand and the next mover's legal moves; the other
    # seats' parts stay (but when a packet is dealt to everyone).
    assert reused >= (players - 2) * moves * 0.8
    assert st.private_view(None) == {"you": None, "hand": [], "legal": []}


@pytest.mark.parametrize("players,rules", [(2, {}), (4, {"partnership": True}), (3, {})])
def test_a_public_view_built_from_the_last_one_equals_one_built_afresh(
    players: int, rules: dict[str, object]
) -> None:
    """After every move the public view reuses what the last one built (the log's
    entries, score records that still hold, the match standing until a deal is
    recorded); at every seq of a whole match it must equal a view built with nothing
    to reuse, and the match standing must move on when a deal ends."""
    st = room(players, **rules)
    seat_all(st)
    start(st)
    rng = random.Random(players)
    reused_scores = 0
    cumulative_seen = set()
    while st.status == PLAYING:
        before = st.public_view()
        if st.deal.is_over:
            next_deal(st)
        else:
            m = rng.choice(st.deal.legal_moves())
            st.apply(
                stored_event(
                    st.seq + 1, PLAY, seat=st.deal.to_move, card=m.card, take=m.take,
                    client_id=f"{st.seq}",
                )
            )  # fmt: skip
        view = st.public_view()
        reused_scores += sum(1 for a, b in zip(before["scores"], view["scores"]) if a is b)
        cumulative_seen.add(tuple(view["cumulative"]))
        st._public, st._log = None, None  # nothing to reuse
        assert st.public_view() == view
    assert reused_scores > 0
    assert len(cumulative_seen) > 1, "the standing moved on as deals ended"


def fresh_public_view(st: RoomState) -> dict[str, object]:
    """The public view built with nothing of an earlier one to reuse."""
    st._public, st._log = None, None
    st._seats_part, st._options_part, st._deal_parts = None, None, None
    return st.public_view()


def test_the_reused_seats_options_and_deal_parts_follow_every_kind_of_event() -> None:
    """The public view keeps its seats, options, set-aside pictures, sweep markers and
    partners from one view to the next until an event changes what they show: a
    seat taken, autoplay on and off, plays the server makes for a seat (and the
    seat's own play after them), a changed option, a new match.  After every event
    the view must equal one built afresh, and the parts must have been reused."""
    st = room(4, partnership=True)
    seat_all(st)
    start(st)
    rng = random.Random(11)
    reused = {"seats": 0, "options": 0, "partners": 0, "set_aside_other": 0}
    events = 0

    def step(ev: RoomEvent) -> None:
        nonlocal events
        before = st.public_view()
        st.apply(ev)
        view = st.public_view()
        for key in reused:
            reused[key] += view[key] is before[key]
        assert fresh_public_view(st) == view, ev
        events += 1

    def play(client_id: str) -> None:
        m = rng.choice(st.deal.legal_moves())
        seat = st.deal.to_move
        step(
            stored_event(st.seq + 1, PLAY, seat=seat, card=m.card, take=m.take, client_id=client_id)
        )

    while st.status == PLAYING:
        if st.deal.is_over:
            step(
                stored_event(
                    st.seq + 1, DEAL, data={"seed": f"s{st.seq}", "deal_no": st.deal_no + 1}
                )
            )
            continue
        turn = st.seq % 7
        if turn == 0:
            step(stored_event(st.seq + 1, AUTOPLAY, seat=st.deal.to_move, data={"on": True}))
        elif turn == 1:
            play(f"srv:standin:{st.seq}")  # the server plays for the seat: played_for grows
        elif turn == 2:
            step(stored_event(st.seq + 1, AUTOPLAY, seat=(st.seq % 4), data={"on": False}))
        elif turn == 3:
            on = st.seq % 2 == 0
            step(stored_event(st.seq + 1, OPTION, data={"spectator_chat": on}))
        else:
            play(f"{st.seq}")  # the seat's own play: its played_for is cleared
        if st.deal_no > 3:
            break
    assert events > 100
    assert all(n > events // 3 for n in reused.values()), reused
    # A new match starts every seat's played-for afresh, and its view is still right.
    step(stored_event(st.seq + 1, MATCH, data={"match_no": st.match_no + 1, "first_dealer": 1}))
