"""app/wire/: one model per WebSocket message, the encoders, the published schema.

Every encoder's output is checked against the schema the server publishes (the
same check tests/server/harness.py makes on every message a test receives), and
the check itself is shown to fail on messages that break it.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import jsonpatch
import pytest
from pydantic import ValidationError

from app import wire
from app.engine.rules import RuleSet
from app.realtime.hub import Hub
from app.realtime.jsondiff import make_patch
from app.rooms.domain.events import DealStarted, MatchStarted, Played, RoomEvent, SeatTaken
from app.rooms.domain.state import RoomOptions, RoomState
from tests.server.harness import ProtocolChecker, ProtocolViolation
from tests.wire.test_view_schema import views_of_a_whole_match


@pytest.fixture
def checker() -> ProtocolChecker:
    return ProtocolChecker(wire.protocol_schema())


def test_the_schema_is_valid_json_schema_with_both_directions() -> None:
    schema = wire.protocol_schema()
    assert schema["version"] == wire.PROTOCOL_VERSION
    assert schema["$id"] == wire.SCHEMA_PATH
    client = {ref["$ref"].rsplit("/", 1)[1] for ref in schema["$defs"]["ClientMessage"]["oneOf"]}
    server = {ref["$ref"].rsplit("/", 1)[1] for ref in schema["$defs"]["ServerMessage"]["oneOf"]}
    assert {m.__name__ for m in wire.CLIENT_MESSAGES} == client
    assert {m.__name__ for m in wire.SERVER_MESSAGES} == server
    assert {"Hello", "Play", "Rematch", "Ping", "ReviewStart"} <= client
    assert {
        "Welcome",
        "Snapshot",
        "Patch",
        "Presence",
        "Error",
        "Ack",
        "Pong",
        "Reconnect",
        "Review",
    } <= server
    ProtocolChecker(schema)  # check_schema passes


REVIEW = {
    "id": "ab12cd34",
    "match_no": 1,
    "deal_no": 2,
    "steps": 9,
    "step": 3,
    "driver": "0123456789abcdef",
    "participants": [
        {"id": "0123456789abcdef", "name": "Ann", "seat": 0},
        {"id": "fedcba9876543210", "name": "Eve", "seat": None},
    ],
}


@pytest.mark.parametrize(
    "text",
    [
        wire.welcome_message(None, 0),
        wire.welcome_message(2, 17),
        wire.snapshot_message(3, views_of_a_whole_match(2, single_pack=True)[3]),
        wire.patch_message(
            4,
            wire.encode_ops([{"op": "replace", "path": "/to_move", "value": 1}]),
            wire.encode_ops([{"op": "remove", "path": "/hand/0"}]),
        ),
        wire.patch_message(5, "", ""),
        wire.presence_message([True, False]),
        wire.error_message("not_your_turn", "it is not your turn", "m1"),
        wire.error_message("seat_moved", "moved", None, reason="transfer"),
        wire.ack_message("m1", 9, False),
        wire.review_message(4, REVIEW, "0123456789abcdef"),
        wire.review_message(5, None, None),
        wire.PONG,
        wire.RECONNECT,
    ],
)
def test_every_encoder_makes_a_message_of_the_schema(text: str, checker: ProtocolChecker) -> None:
    msg = json.loads(text)
    checker.check(msg)
    assert wire.parse_server(text).type == msg["type"]  # type: ignore[attr-defined]


def test_an_error_has_no_reason_unless_its_seat_moved() -> None:
    assert "reason" not in json.loads(wire.error_message("busy", "try again"))
    moved = json.loads(wire.error_message("seat_moved", "m", reason="reclaim"))
    assert moved["reason"] == "reclaim"


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "patch", "seq": "4", "ops": []},  # seq a string
        {"type": "patch", "seq": 4, "ops": [{"op": "shuffle", "path": "/hand"}]},
        {"type": "snapshot", "seq": 1},  # no view
        {"type": "welcome", "you": None, "seq": 1, "hand": ["AS"]},  # a field not declared
        {"type": "error", "id": None, "code": "busy"},  # no message
        {"type": "ack", "id": "m", "seq": 1},  # no duplicate
        {"type": "presence", "connected": [1, 0]},
        {"type": "teleport"},
        {"seq": 1},
        ["not", "an", "object"],
    ],
)
def test_a_wrong_message_fails_the_check(bad: Any, checker: ProtocolChecker) -> None:
    with pytest.raises(ProtocolViolation, match="breaks the protocol schema"):
        checker.check(bad)


def test_client_messages_are_parsed_by_type_and_refused_otherwise() -> None:
    play = wire.parse_client('{"type":"play","id":"a1","card":"9D","take":["2H","7S"]}')
    assert isinstance(play, wire.Play) and play.take == ["2H", "7S"]
    assert isinstance(wire.parse_client('{"type":"hello","token":null}'), wire.Hello)
    for bad in (
        '{"type":"play","id":"a1"}',
        '{"type":"hello","extra":1}',
        '{"type":"nope"}',
        '{"type":"hello","last_seq":"3"}',
    ):
        with pytest.raises(ValidationError):
            wire.parse_client(bad)


def test_a_message_type_is_registered_in_one_line_and_reaches_parser_and_schema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wire.registry, "CLIENT_MESSAGES", list(wire.CLIENT_MESSAGES))
    monkeypatch.setattr(wire.registry, "SERVER_MESSAGES", list(wire.SERVER_MESSAGES))
    monkeypatch.setattr(wire.registry, "_adapters", {})

    @wire.client_message
    class Wave(wire.Incoming):
        type: Literal["wave"]
        hand: str

    @wire.server_message
    class Waved(wire.Outgoing):
        type: Literal["waved"] = "waved"
        seat: int

    assert isinstance(wire.parse_client('{"type":"wave","hand":"left"}'), Wave)
    checker = ProtocolChecker(wire.protocol_schema())
    checker.check({"type": "waved", "seat": 1})
    with pytest.raises(ProtocolViolation):
        checker.check({"type": "waved"})
    with pytest.raises(ValueError, match="twice"):
        wire.server_message(Waved)


def test_a_model_without_a_literal_type_is_refused() -> None:
    class Nameless(wire.Outgoing):
        seat: int

    with pytest.raises(TypeError, match="Literal"):
        wire.server_message(Nameless)


def test_a_patch_joins_its_fragments_into_the_model_and_applies() -> None:
    old = {"table": ["2H", "7S"], "hand": ["9D", "AS"], "to_move": 0, "name": "Åsa"}
    public_new = {"table": ["2H", "7S", "9D"], "to_move": 1, "name": "Åsa ✓"}
    private_new = {"hand": ["AS"]}
    public_ops = make_patch({k: old[k] for k in public_new}, public_new)
    own_ops = make_patch({"hand": old["hand"]}, private_new)
    text = wire.patch_message(7, wire.encode_ops(public_ops), wire.encode_ops(own_ops))
    parsed = wire.parse_server(text)
    assert isinstance(parsed, wire.Patch) and parsed.seq == 7
    msg = json.loads(text)
    assert msg["ops"] == public_ops + own_ops
    assert jsonpatch.apply_patch(old, msg["ops"]) == {**public_new, **private_new}


class Sink:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int) -> None:
        pass


def test_a_patch_is_encoded_once_and_the_same_string_goes_to_every_spectator(
    checker: ProtocolChecker,
) -> None:
    """The fast path: one serialisation per audience and change, never per connection."""
    room = RoomState("r" * 32, "CODE42", 2, RuleSet.from_dict({"single_pack": True}), RoomOptions())
    for seat in range(2):
        room.apply(RoomEvent(room.seq + 1, SeatTaken(seat, f"P{seat}")))
    room.apply(RoomEvent(room.seq + 1, MatchStarted(1, 0, 2)))
    room.apply(RoomEvent(room.seq + 1, DealStarted("s" * 8, 1, 1, 1, 1, 2)))
    public, private = room.public_view, room.private_view
    hub = Hub()
    watchers = [Sink() for _ in range(5)]
    for sink in watchers:
        hub.attach(None, sink, public, private, room.seq, None)
    assert room.deal is not None and room.deal.to_move is not None
    move = room.deal.legal()[0]
    room.apply(RoomEvent(room.seq + 1, Played(room.deal.to_move, move.card, move.take)))
    hub.flush(hub.prepare(room.seq, public, private), public, private)
    last = [sink.sent[-1] for sink in watchers]
    assert all(text is last[0] for text in last)  # the very same object
    assert json.loads(last[0])["type"] == "patch"
    for sink in watchers:
        for text in sink.sent:
            checker.check(json.loads(text))
