"""The events a room needs next on its own (app/rooms/domain/specs.py)."""

from __future__ import annotations

import random

from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import (
    CLOSE,
    DEAL,
    PLAY,
    SEAT,
    DealStarted,
    EventBody,
    MatchStarted,
    RoomEvent,
)
from app.rooms.domain.specs import deal_spec, followup, match_spec
from app.rooms.domain.state import FINISHED, RoomOptions, RoomState


def seated(players: int = 3) -> RoomState:
    st = RoomState(
        "s" * 32, "SPEC42", players, RuleSet.from_dict({"match_deals": 1}), RoomOptions()
    )
    for i in range(players):
        assert followup(st) is None, "no match before every seat is taken"
        st.apply(stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"P{i}"}))
    return st


def apply_spec(st: RoomState, body: EventBody) -> None:
    st.apply(RoomEvent(st.seq + 1, body, st.changed_at + 1))


def test_the_first_match_is_number_one_with_a_dealer_of_the_table() -> None:
    st = seated(3)
    dealers = set()
    for _ in range(60):
        spec = followup(st)
        assert spec is not None and isinstance(spec.body, MatchStarted)
        assert spec.body.match_no == 1 and spec.body.players == 3
        assert spec.token_hash is None
        dealers.add(spec.body.first_dealer)
    assert dealers == {0, 1, 2}, "R2.1: the first dealer is drawn among the seats"


def test_a_rematch_is_the_next_match_number() -> None:
    st = seated(2)
    first = followup(st)
    assert first is not None
    apply_spec(st, first.body)
    rng = random.Random(4)
    while st.status != FINISHED:
        spec = followup(st)
        if spec is not None:
            apply_spec(st, spec.body)
            continue
        assert st.deal is not None
        m = rng.choice(st.deal.legal_moves())
        st.apply(stored_event(st.seq + 1, PLAY, seat=st.deal.to_move, card=m.card, take=m.take))
    assert followup(st) is None, "a finished match starts no other by itself"
    again = match_spec(st)
    assert isinstance(again.body, MatchStarted) and again.body.match_no == 2


def test_the_first_deal_follows_the_match_with_its_dealer_and_pack() -> None:
    st = seated(3)
    apply_spec(st, MatchStarted(1, 2, 3))
    spec = followup(st)
    assert spec is not None and isinstance(spec.body, DealStarted)
    body = spec.body
    assert (body.match_no, body.deal_no, body.dealer) == (1, 1, 2)
    assert (body.copies, body.players) == (st.rules.copies, 3)
    again = deal_spec(st).body
    assert isinstance(again, DealStarted) and again.seed != body.seed, "a fresh seed each time"
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": body.seed, "deal_no": 1}))
    assert followup(st) is None, "nothing follows while the deal is played"


def test_a_room_closed_between_deals_deals_no_more() -> None:
    st = RoomState(
        "s" * 32, "SPEC42", 2, RuleSet.from_dict({"match_deals": 2}), RoomOptions(deal_pause=30)
    )
    for i in range(2):
        st.apply(stored_event(st.seq + 1, SEAT, seat=i, data={"name": f"P{i}"}))
    apply_spec(st, MatchStarted(1, 0, 2))
    st.apply(stored_event(st.seq + 1, DEAL, data={"seed": "c1", "deal_no": 1}))
    rng = random.Random(5)
    while st.deal is not None and not st.deal.is_over:
        m = rng.choice(st.deal.legal_moves())
        st.apply(stored_event(st.seq + 1, PLAY, seat=st.deal.to_move, card=m.card, take=m.take))
    assert st.between_deals and st.needs_next_deal()
    st.apply(stored_event(st.seq + 1, CLOSE, data={"reason": "maintenance"}))
    assert not st.needs_next_deal() and not st.between_deals
    assert followup(st) is None, "a closed room stays as it stands"
