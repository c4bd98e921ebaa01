"""What every command's handler is handed: the unit of work, the write path, and
catching up with other processes (for presence: who is connected anywhere).

One value for all of them, so that every handler has the same shape,
``async def handler(ctx: Context, command: SomeCommand) -> Answer``, and the table
from command type to handler (app/rooms/commands/table.py) is a plain mapping.

A handler says which command it handles where it is written, ``@handles(SomeCommand)``
(issue 48: a new command's handler needs no line in a table elsewhere); the table is
what the handlers' modules registered once imported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..domain.commands import Command
from ..sync import RoomSync
from ..unit import RoomsUnit
from ..writes import WritePath


@dataclass(frozen=True, slots=True)
class Context:
    unit: RoomsUnit
    writes: WritePath
    sync: RoomSync


C = TypeVar("C", bound=Command[Any])
R = TypeVar("R")
Handler = Callable[[Context, Any], Awaitable[Any]]

REGISTERED: dict[type[Command[Any]], Handler] = {}
"""Command type -> its handler, filled by ``handles`` as the handlers' modules are
imported (app/rooms/commands/table.py imports them all)."""


def handles(
    kind: type[C],
) -> Callable[[Callable[[Context, C], Awaitable[R]]], Callable[[Context, C], Awaitable[R]]]:
    """Register the decorated function as ``kind``'s handler.  mypy holds the handler
    to taking ``kind`` (a handler of another command does not type-check); a second
    handler for one command is a bug, refused when its module is imported."""

    def register(
        handler: Callable[[Context, C], Awaitable[R]],
    ) -> Callable[[Context, C], Awaitable[R]]:
        known = REGISTERED.get(kind)
        if known is not None and known is not handler:
            raise TypeError(
                f"two handlers of {kind.__name__}: {known.__name__}, {handler.__name__}"
            )
        REGISTERED[kind] = handler
        return handler

    return register
