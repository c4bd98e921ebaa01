"""The WebSocket's one table from message type to handler (app/api/ws.py, joining
app/api/ws_messages.py's and app/api/social.py's): every message a client may send, as
the wire's registry declares them, has exactly one handler, which takes that message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_type_hints

import pytest
from pydantic import BaseModel

from app import wire
from app.api import social, ws_messages
from app.api.ws import HANDLERS
from app.rooms.domain import commands
from tests.conftest import run_async


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
    derived = {model for model, _ in ws_messages.seat_commands()}
    for model, handler in HANDLERS.items():
        taken = get_type_hints(handler)["msg"]
        # the review's messages go to one handler, which the review reads by type; a
        # seat command's handler is made for its message (below)
        general = model in reviews or model in derived
        assert taken is (BaseModel if general else model), (model, handler)


def test_seat_commands_are_found_by_their_message() -> None:
    """A rematch, its refusal, a vacation and a take-back need no socket handler of
    their own: each command marked ``sent_as`` gets its line."""
    by_type = {wire.message_type(model) for model, _ in ws_messages.seat_commands()}
    assert by_type == {"rematch", "rematch_decline", "vacation", "takeback"}
    assert by_type == set(commands.SENT_AS)


def test_a_seat_command_is_made_from_its_message() -> None:
    """The handler builds the command from the connection's room and seat and the
    message's fields of the command's names: a vacation's ``on`` goes through."""
    executed: list[object] = []

    class Rooms:
        async def execute(self, command: object) -> None:
            executed.append(command)

    class Services:
        rooms = Rooms()

    handler = dict(ws_messages.seat_commands())[wire.Vacation]
    at = ws_messages.At(conn=None, services=Services(), room_id="r1", seat=2)  # type: ignore[arg-type]

    async def send() -> None:
        await handler(at, wire.Vacation(type="vacation", on=True))

    run_async(send())
    assert executed == [commands.SetVacation("r1", 2, True)]


def test_a_command_whose_message_lacks_a_field_is_refused_at_import() -> None:
    @dataclass(frozen=True)
    class Resign(commands.Command[None]):
        room_id: str
        seat: int | None
        reason: str

    with pytest.raises(TypeError, match="lacks"):
        ws_messages._seat_command(Resign, wire.Rematch)


def test_two_commands_sent_as_one_message_are_refused() -> None:
    with pytest.raises(TypeError, match="two commands"):
        commands.sent_as("rematch")(commands.Rematch)
