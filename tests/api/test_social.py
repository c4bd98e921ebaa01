"""The social WebSocket messages' models (app/wire/table.py, handled in app/api/social.py):
what is accepted and what is refused before anything reaches a room."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app import wire
from app.api import social


def parse(**msg: object) -> object:
    return wire.parse_client(json.dumps(msg))


def test_good_messages_are_read() -> None:
    assert parse(type="chat", text="  hej  ").text == "hej"  # type: ignore[attr-defined]
    assert parse(type="chat", text="<b>x</b>", name="Eve").name == "Eve"  # type: ignore[attr-defined]
    assert parse(type="react", emote="🙏").emote == "🙏"  # type: ignore[attr-defined]
    assert isinstance(parse(type="continue"), wire.Continue)
    assert parse(type="spectator_chat", on=False).on is False  # type: ignore[attr-defined]
    assert parse(type="chat", text="x" * 300)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "chat", "text": ""},
        {"type": "chat", "text": "   "},
        {"type": "chat", "text": "x" * 301},
        {"type": "chat", "text": "two\nlines"},
        {"type": "chat", "text": "nul\u0000"},
        {"type": "chat", "text": "hi", "seat": 0},
        {"type": "chat", "text": "hi", "name": ""},
        {"type": "react", "emote": "💩"},
        {"type": "continue", "now": True},
        {"type": "spectator_chat", "on": "no"},
    ],
)
def test_bad_messages_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        wire.parse_client(json.dumps(bad))


def test_only_the_social_types_are_routed_here() -> None:
    social_ones = [
        parse(type="chat", text="hi"),
        parse(type="react", emote="🙏"),
        parse(type="continue"),
        parse(type="deal_shown", match_no=1, deal_no=2),
        parse(type="spectator_chat", on=True),
    ]
    others = [
        parse(type="play", id="a", card="7H", take=[]),
        parse(type="hello"),
        parse(type="ping"),
    ]
    assert {type(m) for m in social_ones} == set(social.HANDLERS)
    assert not any(type(m) in social.HANDLERS for m in others)
