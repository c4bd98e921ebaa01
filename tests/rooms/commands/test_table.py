"""The one table from room command to handler (app/rooms/commands/table.py): every
command of app/rooms/domain/commands.py has its handler, registered beside it with
``@handles``, and each handler answers what its command says it answers (mypy holds the
handler to its command; this, to its answer)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, get_args, get_type_hints

import pytest

from app.broker import MemoryBroker
from app.rooms.commands import play
from app.rooms.commands.context import REGISTERED, Context, handles
from app.rooms.commands.table import HANDLERS
from app.rooms.domain import commands
from app.rooms.domain.commands import Command, PlayCard
from app.rooms.domain.results import PlayAnswer
from app.rooms.memory import MemoryStore
from app.rooms.service import RoomService
from tests.conftest import run_async


def command_classes() -> list[type[Command[Any]]]:
    """Every command the domain declares (read from the module, not from the table)."""
    return [
        value
        for value in vars(commands).values()
        if inspect.isclass(value) and issubclass(value, Command) and value is not Command
    ]


def answer_of(kind: type[Command[Any]]) -> object:
    """The ``A`` of ``class Kind(Command[A])``."""
    (base,) = [b for b in kind.__orig_bases__ if getattr(b, "__origin__", None) is Command]  # type: ignore[attr-defined]
    (answer,) = get_args(base)
    return type(None) if answer is None else answer


def unhandled(kinds: list[type[Command[Any]]], table: object) -> list[str]:
    return sorted(k.__name__ for k in kinds if k not in table)  # type: ignore[operator]


def test_every_command_has_a_handler_and_the_table_nothing_else() -> None:
    kinds = command_classes()
    assert len(kinds) >= 12, "the commands are found"
    assert unhandled(kinds, HANDLERS) == []
    assert set(HANDLERS) == set(kinds)


def test_a_command_without_a_line_is_found() -> None:
    @dataclass(frozen=True)
    class Resign(Command[None]):
        room_id: str

    assert unhandled([*command_classes(), Resign], HANDLERS) == ["Resign"]


def test_a_handler_registers_where_it_is_written() -> None:
    @dataclass(frozen=True)
    class Resign(Command[None]):
        room_id: str

    @handles(Resign)
    async def resign(ctx: Context, cmd: Resign) -> None:
        return None

    try:
        assert HANDLERS[Resign] is resign
    finally:
        del REGISTERED[Resign]
    assert Resign not in HANDLERS


def test_a_second_handler_of_one_command_is_refused_and_the_first_kept() -> None:
    async def other_play(ctx: Context, cmd: PlayCard) -> PlayAnswer:
        raise AssertionError("never run")

    with pytest.raises(TypeError, match="two handlers of PlayCard: play, other_play"):
        handles(PlayCard)(other_play)
    assert HANDLERS[PlayCard] is play.play


@pytest.mark.parametrize("kind", command_classes(), ids=lambda k: k.__name__)
def test_each_handler_takes_its_command_and_answers_its_answer(kind: type[Command[Any]]) -> None:
    hints = get_type_hints(HANDLERS[kind])
    taken = [t for name, t in hints.items() if name != "return"]
    assert taken[-1] is kind
    assert hints["return"] == answer_of(kind), f"{kind.__name__} answers {answer_of(kind)}"


def test_a_command_of_no_table_is_refused_as_a_bug_and_changes_nothing() -> None:
    @dataclass(frozen=True)
    class Resign(Command[None]):
        room_id: str

    async def run() -> None:
        service = RoomService(MemoryStore(), MemoryBroker())
        try:
            with pytest.raises(TypeError, match="no handler for Resign"):
                await service.execute(Resign("r"))
        finally:
            await service.stop()

    run_async(run())
