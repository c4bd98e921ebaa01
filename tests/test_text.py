"""app/text.py and the fields that use it: names, a play's id, a close reason.
Through a real server on SQLite and PostgreSQL: tests/server/test_http_limits.py."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app import wire
from app.api.admin import CloseRoom
from app.api.schemas import CreateRoom, JoinRoom
from app.text import refused_character


@pytest.mark.parametrize(
    "text, why",
    [
        ("A\x00", "a control character (U+0000)"),
        ("A\x1bB", "a control character (U+001B)"),
        ("A\x7f", "a control character (U+007F)"),
        ("A\x85B", "a control character (U+0085)"),
        ("A\tB", "a control character (U+0009)"),
        ("A\nB", "a control character (U+000A)"),
        ("A\ud800", "a surrogate (U+D800)"),
        ("\udfffB", "a surrogate (U+DFFF)"),
        ("A\u2028B", "a line separator (U+2028)"),
        ("A\u2029B", "a paragraph separator (U+2029)"),
    ],
)
def test_refused_characters_are_named(text: str, why: str) -> None:
    assert refused_character(text) == f"must not contain {why}"


@pytest.mark.parametrize(
    "name",
    ["Ann", "Åsa Öberg", "Zoë", "李小龍", "محمد", "👩‍💻 dev", "O'Brien-Smith", "a" * 40, "é" * 40],
)
def test_names_people_write_are_taken(name: str) -> None:
    assert refused_character(name) is None
    assert CreateRoom.model_validate({"players": 2, "name": name}).name == name
    assert JoinRoom.model_validate({"name": f"  {name}  "}).name == name


@pytest.mark.parametrize(
    "name", ["", "   ", "a" * 41, "A\x00", "\x00", "A\u2028B", "Tab\there", "A\ud800"]
)
def test_names_out_of_bounds_or_with_refused_characters_are_refused(name: str) -> None:
    for model, body in ((CreateRoom, {"players": 2, "name": name}), (JoinRoom, {"name": name})):
        with pytest.raises(ValidationError, match="name"):
            model.model_validate(body)


@pytest.mark.parametrize("msg_id", ["a", "!", "~", "m" * 64, "0123-abcd_EF:{}"])
def test_play_ids_of_printable_ascii_are_taken(msg_id: str) -> None:
    play = wire.parse_client(json.dumps({"type": "play", "id": msg_id, "card": "AS"}))
    assert play.id == msg_id  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "msg_id", ["", "m" * 65, "a b", " a", "a\x00", "\x7f", "é", "a\u2028", "\t"]
)
def test_play_ids_with_anything_else_are_refused(msg_id: str) -> None:
    with pytest.raises(ValidationError, match="id"):
        wire.parse_client(json.dumps({"type": "play", "id": msg_id, "card": "AS"}))


def test_a_close_reason_may_be_empty_but_not_carry_refused_characters() -> None:
    assert CloseRoom.model_validate({}).reason == ""
    assert CloseRoom.model_validate({"reason": " Underhåll "}).reason == "Underhåll"
    for reason in ("a\x00", "two\nlines", "a\u2029b", "x" * 201):
        with pytest.raises(ValidationError, match="reason"):
            CloseRoom.model_validate({"reason": reason})
