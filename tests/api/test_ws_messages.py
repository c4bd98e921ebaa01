"""The WebSocket's one table from message type to handler (app/api/ws.py, joining
app/api/ws_messages.py's and app/api/social.py's): every message a client may send, as
the wire's registry declares them, has exactly one handler, which takes that message."""

from __future__ import annotations

from typing import Literal, get_type_hints

from pydantic import BaseModel

from app import wire
from app.api import social, ws_messages
from app.api.ws import HANDLERS


def unhandled(registry: list[type[BaseModel]], table: object) -> list[str]:
    return sorted(wire.message_type(m) for m in registry if m not in table)  # type: ignore[operator]


def test_every_client_message_of_the_registry_has_a_handler() -> None:
    assert len(wire.CLIENT_MESSAGES) >= 20, "the registry is read"
    assert unhandled(wire.CLIENT_MESSAGES, HANDLERS) == []
    assert set(HANDLERS) == set(wire.CLIENT_MESSAGES), "a handler for no client message"


def test_a_message_without_a_handler_is_found() -> None:
    class Resign(wire.Incoming):
        type: Literal["resign"]

    assert unhandled([*wire.CLIENT_MESSAGES, Resign], HANDLERS) == ["resign"]


def test_the_game_and_the_table_talk_handle_different_messages() -> None:
    assert not set(ws_messages.GAME) & set(social.HANDLERS)
    assert len(HANDLERS) == len(ws_messages.GAME) + len(social.HANDLERS)


def test_each_handler_takes_its_own_message() -> None:
    reviews = set(wire.REVIEW_MESSAGES)
    for model, handler in HANDLERS.items():
        taken = get_type_hints(handler)["msg"]
        # the review's messages go to one handler, which the review reads by type
        assert taken is (BaseModel if model in reviews else model), (model, handler)
