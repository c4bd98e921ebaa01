"""The protocol schema describes the view (app/wire/view.py, view_schema.py) and the
error codes: the view table of docs/protocol.md, the views rooms really build, and
every code a refusal may carry."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from app.api.protocol import error_codes
from app.core.errors import ErrorCode
from app.engine.rules import RuleSet
from app.rooms.domain.events import (
    DealStarted,
    MatchStarted,
    Played,
    RematchDeclined,
    RematchOffered,
    RoomClosed,
    RoomEvent,
    SeatTaken,
)
from app.rooms.domain.state import RoomOptions, RoomState
from app.wire import protocol_schema
from tests.conftest import ROOT

SCHEMA = protocol_schema(error_codes())
VIEW = Draft202012Validator({"$ref": "#/$defs/View", "$defs": SCHEMA["$defs"]})


def documented_view_keys() -> set[str]:
    """The keys the view table of docs/protocol.md names."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    table = text[text.index("## The view") :]
    keys: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            keys.update(re.findall(r"`([a-z_]+)`", first))
    return keys


def test_the_schema_has_every_key_the_view_table_documents_and_no_other() -> None:
    properties = set(SCHEMA["$defs"]["View"]["properties"])
    assert documented_view_keys() == properties
    assert {"to_move", "legal", "hand", "you"} <= properties
    assert SCHEMA["$defs"]["Snapshot"]["properties"]["view"] == {"$ref": "#/$defs/View"}


def views_of_a_whole_match(players: int, **rules: object) -> list[dict[str, Any]]:
    st = RoomState("r" * 32, "CODE42", players, RuleSet.from_dict(rules), RoomOptions())
    for seat in range(players):
        st.apply(RoomEvent(st.seq + 1, SeatTaken(seat, f"P{seat}", bot=seat == 1)))
    st.apply(RoomEvent(st.seq + 1, MatchStarted(1, 0, players)))
    rng = random.Random(players)
    views = [st.view(None), st.view(0)]
    while st.status == "playing":
        if st.deal is None or st.deal.is_over:
            st.apply(
                RoomEvent(st.seq + 1, DealStarted(f"s{st.seq}", 1, st.deal_no + 1, 0, 2, players))
            )
            continue
        m = rng.choice(st.deal.legal_moves())
        by = "srv:clock:1" if st.seq % 5 == 0 else None
        st.apply(RoomEvent(st.seq + 1, Played(st.deal.to_move, m.card, tuple(m.take), by)))
        views.append(st.view(st.to_move))
        views.append(st.view(None))
    st.apply(RoomEvent(st.seq + 1, RematchOffered(0, 120_000), 5000))
    views.append(st.view(2 if players > 2 else 1))  # an open offer (issue 33)
    st.apply(RoomEvent(st.seq + 1, RematchDeclined(players - 1), 6000))
    views.append(st.view(0))  # and how it ended
    assert views[-2]["rematch"] is not None and views[-1]["rematch_ended"] is not None
    st.apply(RoomEvent(st.seq + 1, RoomClosed("done", None)))
    views.append(st.view(0))
    return views


@pytest.mark.parametrize("players,rules", [(2, {"single_pack": True}), (4, {"partnership": True})])
def test_every_view_a_room_builds_is_a_view_of_the_schema(
    players: int, rules: dict[str, object]
) -> None:
    for view in views_of_a_whole_match(players, **rules):
        errors = sorted(VIEW.iter_errors(view), key=str)
        assert not errors, errors[0]


def test_a_view_with_a_key_too_many_or_too_few_is_refused() -> None:
    view = views_of_a_whole_match(2, single_pack=True)[3]
    assert VIEW.is_valid(view)
    leaking = {**view, "hands": [["AS"], ["KS"]]}
    assert not VIEW.is_valid(leaking), "a key the protocol does not have"
    assert not VIEW.is_valid({k: v for k, v in view.items() if k != "legal"})
    assert not VIEW.is_valid({**view, "to_move": "0"})


def test_the_error_codes_are_an_enumeration_of_every_refusal() -> None:
    codes = set(SCHEMA["$defs"]["Error"]["properties"]["code"]["enum"])
    assert {"not_your_turn", "bad_message", "rate_limited", "unauthorized"} <= codes
    assert {"must_capture", "not_in_hand"} <= codes, "the engine's move errors (FORMAT.md)"
    assert {c.value for c in ErrorCode} - {"server_full"} <= codes
    assert "server_full" not in codes, "shown to clients as too_many_rooms"


def test_the_schema_describes_the_rematch_offer_its_message_and_its_refusal() -> None:
    """Issue 33: the view's open offer and how the last one ended, the decline message,
    and the code of a decline with no offer open, as /api/protocol.schema.json serves
    them."""
    defs = SCHEMA["$defs"]
    view = defs["View"]["properties"]
    assert view["rematch"] == {"anyOf": [{"$ref": "#/$defs/RematchView"}, {"type": "null"}]}
    assert defs["RematchView"]["required"] == ["accepted", "by", "deadline"]
    assert defs["RematchEndedView"]["properties"]["reason"] == {"enum": ["declined", "expired"]}
    assert view["rematch_ended"]["anyOf"][1] == {"type": "null"}
    mapping = defs["ClientMessage"]["discriminator"]["mapping"]
    assert mapping["rematch_decline"] == "#/$defs/RematchDecline"
    assert defs["RematchDecline"]["required"] == ["type"]
    assert not defs["RematchDecline"]["additionalProperties"]
    assert "no_rematch_offer" in defs["Error"]["properties"]["code"]["enum"]
