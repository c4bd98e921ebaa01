"""A rematch is offered and accepted, not imposed (issue 33): the events a Rematch, a
decline and the deadline write, on the pure room state (app/rooms/commands/rematch.py,
app/rooms/domain/rematch.py), and what every view says of the offer."""

from __future__ import annotations

import random

import pytest

from app.core.errors import ErrorCode, ServiceError
from app.engine.rules import RuleSet
from app.rooms.commands.rematch import decline, expire, offer_or_accept
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.events import (
    AutoplaySet,
    DealStarted,
    EventBody,
    MatchStarted,
    Played,
    RematchAccepted,
    RematchDeclined,
    RematchExpired,
    RematchOffered,
    RoomClosed,
    RoomEvent,
    SeatTaken,
)
from app.rooms.domain.specs import Spec
from app.rooms.domain.state import FINISHED, PLAYING, RoomOptions, RoomState

T0 = 1_000_000
TIMEOUT = 120_000


def add(st: RoomState, body: EventBody, at: int = T0) -> None:
    st.apply(RoomEvent(st.seq + 1, body, at))


def write(st: RoomState, specs: list[Spec], at: int) -> None:
    """What the write path does with a command's specs (less storing them)."""
    for spec in specs:
        add(st, spec.body, at)


def finished(bots: tuple[int, ...] = (), players: int = 3) -> RoomState:
    """A room whose one-deal match is over; ``bots`` are bot seats."""
    st = RoomState(
        "r" * 32, "CODE42", players, RuleSet.from_dict({"match_deals": 1}), RoomOptions()
    )
    for i in range(players):
        add(st, SeatTaken(i, f"P{i}", bot=i in bots))
    add(st, MatchStarted(1, 0, players))
    add(st, DealStarted("s" * 64, 1, 1, 0, 1, players))
    rng = random.Random(5)
    assert st.deal is not None
    while not st.deal.is_over:
        m = rng.choice(st.deal.legal_moves())
        add(st, Played(st.deal.to_move, m.card, tuple(m.take)))
    assert st.status == FINISHED
    return st


def test_a_rematch_is_an_offer_the_others_see_with_its_deadline() -> None:
    st = finished()
    specs = offer_or_accept(st, 1, T0, TIMEOUT)
    assert [s.body for s in specs] == [RematchOffered(1, TIMEOUT)]
    write(st, specs, T0)
    assert st.status == FINISHED and st.match_no == 1, "nothing starts on one player's word"
    for seat in (0, 1, 2, None):
        view = st.view(seat)
        assert view["rematch"] == {"by": 1, "accepted": [1], "deadline": T0 + TIMEOUT}
        assert view["rematch_ended"] is None


def test_the_match_starts_with_the_last_acceptance_and_clears_the_offer() -> None:
    st = finished()
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    specs = offer_or_accept(st, 2, T0 + 5, TIMEOUT)
    assert [s.body for s in specs] == [RematchAccepted(2)], "seat 1 has not answered"
    write(st, specs, T0 + 5)
    assert st.view(1)["rematch"] == {"by": 0, "accepted": [0, 2], "deadline": T0 + TIMEOUT}
    assert offer_or_accept(st, 2, T0 + 6, TIMEOUT) == [], "accepting twice changes nothing"
    assert offer_or_accept(st, 0, T0 + 6, TIMEOUT) == [], "the offerer has accepted"
    specs = offer_or_accept(st, 1, T0 + 10, TIMEOUT)
    kinds = [type(s.body) for s in specs]
    assert kinds == [RematchAccepted, MatchStarted]
    write(st, specs, T0 + 10)
    assert st.status == PLAYING and st.match_no == 2
    assert st.view(0)["rematch"] is None and st.rematch is None


def test_bots_and_stand_ins_accept_by_themselves() -> None:
    alone = finished(bots=(1, 2))
    specs = offer_or_accept(alone, 0, T0, TIMEOUT)
    assert [type(s.body) for s in specs] == [MatchStarted], "alone with bots: at once"
    st = finished(bots=(2,))
    add(st, AutoplaySet(1, True))  # a person away: a stand-in plays (and answers) for them
    assert [type(s.body) for s in offer_or_accept(st, 0, T0, TIMEOUT)] == [MatchStarted]
    st = finished(bots=(2,))
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    assert st.view(0)["rematch"] == {"by": 0, "accepted": [0], "deadline": T0 + TIMEOUT}
    assert [type(s.body) for s in offer_or_accept(st, 1, T0 + 1, TIMEOUT)] == [
        RematchAccepted,
        MatchStarted,
    ]


def test_a_decline_withdraws_the_offer_and_says_who() -> None:
    st = finished()
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    write(st, offer_or_accept(st, 1, T0 + 1, TIMEOUT), T0 + 1)
    specs = decline(st, 2, T0 + 2)
    assert [s.body for s in specs] == [RematchDeclined(2)]
    write(st, specs, T0 + 2)
    view = st.view(None)
    assert view["rematch"] is None and st.status == FINISHED and st.match_no == 1
    assert view["rematch_ended"] == {"by": 0, "reason": "declined", "seat": 2}
    # a new offer starts afresh (nobody's earlier acceptance carries over)
    write(st, offer_or_accept(st, 2, T0 + 3, TIMEOUT), T0 + 3)
    assert st.view(0)["rematch"] == {"by": 2, "accepted": [2], "deadline": T0 + 3 + TIMEOUT}
    assert st.view(0)["rematch_ended"] is None


def test_the_offerer_may_withdraw_it() -> None:
    st = finished()
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    write(st, decline(st, 0, T0 + 1), T0 + 1)
    assert st.view(1)["rematch_ended"] == {"by": 0, "reason": "declined", "seat": 0}


def test_an_unanswered_offer_lapses_at_its_deadline() -> None:
    st = finished()
    write(st, offer_or_accept(st, 1, T0, TIMEOUT), T0)
    assert expire(st, T0 + TIMEOUT - 1) == [], "not before its deadline"
    specs = expire(st, T0 + TIMEOUT)
    assert [s.body for s in specs] == [RematchExpired()]
    write(st, specs, T0 + TIMEOUT)
    assert st.view(0)["rematch"] is None
    assert st.view(0)["rematch_ended"] == {"by": 1, "reason": "expired", "seat": None}
    assert expire(st, T0 + 2 * TIMEOUT) == [], "nothing left to lapse"


def test_a_lapsed_offer_whose_expiry_is_not_written_is_gone_all_the_same() -> None:
    """Nobody was connected at its deadline (the timer waits for someone): a Rematch
    then is a new offer, not a late acceptance, and a decline only withdraws it."""
    st = finished()
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    late = T0 + TIMEOUT + 5
    specs = offer_or_accept(st, 1, late, TIMEOUT)
    assert [s.body for s in specs] == [RematchExpired(), RematchOffered(1, TIMEOUT)]
    assert [s.body for s in decline(st, 1, late)] == [RematchExpired()]


@pytest.mark.parametrize("command", ["offer", "decline"])
def test_spectators_unfinished_and_closed_rooms_are_refused(command: str) -> None:
    def run(st: RoomState, seat: int | None) -> list[Spec]:
        return (
            offer_or_accept(st, seat, T0, TIMEOUT) if command == "offer" else decline(st, seat, T0)
        )

    st = finished()
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    with pytest.raises(ServiceError) as spectator:
        run(st, None)
    assert spectator.value.code == ErrorCode.UNAUTHORIZED
    playing = finished()
    write(playing, offer_or_accept(playing, 0, T0, TIMEOUT), T0)
    write(playing, offer_or_accept(playing, 1, T0, TIMEOUT), T0)
    write(playing, offer_or_accept(playing, 2, T0, TIMEOUT), T0)
    assert playing.status == PLAYING
    with pytest.raises(ServiceError) as unfinished:
        run(playing, 0)
    assert unfinished.value.code == RoomCode.NOT_FINISHED
    add(st, RoomClosed("maintenance"))
    assert st.view(0)["rematch"] is None, "closing the room withdraws the offer"
    with pytest.raises(ServiceError) as closed:
        run(st, 0)
    assert closed.value.code == RoomCode.CLOSED


def test_a_decline_with_no_offer_open_is_refused() -> None:
    st = finished()
    with pytest.raises(ServiceError) as refused:
        decline(st, 1, T0)
    assert refused.value.code == RoomCode.NO_REMATCH_OFFER
    write(st, offer_or_accept(st, 0, T0, TIMEOUT), T0)
    write(st, decline(st, 1, T0), T0)
    with pytest.raises(ServiceError) as again:
        decline(st, 2, T0)
    assert again.value.code == RoomCode.NO_REMATCH_OFFER, "the offer is gone already"
