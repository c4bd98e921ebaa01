"""No take-back and no hint in a rated room (issue 34): a rating says how a person plays
unaided.  The same table unrated offers both (issue 33)."""

from __future__ import annotations

import pytest

from app.core.errors import ServiceError
from app.engine.rules import RuleSet
from app.rooms.commands.assist import check_person
from app.rooms.domain.assist import assist_view
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.events import DealStarted, MatchStarted, RoomEvent, SeatTaken
from app.rooms.domain.state import RoomOptions, RoomState


def _table(rated: bool) -> RoomState:
    """Ann against a bot, the first deal dealt."""
    st = RoomState("r" * 32, "ABCDEF", 2, RuleSet(single_pack=True), RoomOptions(rated=rated))
    bodies = [
        SeatTaken(0, "Ann"),
        SeatTaken(1, "Bot 1", bot=True),
        MatchStarted(1, 1, 2),
        DealStarted("seed", 1, 1, 1, 1, 2),
    ]
    for seq, body in enumerate(bodies, 1):
        st.apply(RoomEvent(seq, body, seq))
    return st


def test_one_person_against_a_bot_is_offered_a_hint_unrated_only() -> None:
    unrated, rated = _table(False), _table(True)
    for st in (unrated, rated):
        assert st.deal is not None
    view = assist_view(unrated.seats, unrated.options, True, unrated.deal)
    assert view is not None and view["seat"] == 0
    assert assist_view(rated.seats, rated.options, True, rated.deal) is None
    assert check_person(unrated, 0) == 0
    with pytest.raises(ServiceError) as refused:
        check_person(rated, 0)
    assert refused.value.code == RoomCode.NO_ASSIST
