"""The one table from command type to handler: what ``RoomService.execute`` runs.

Every handler has one shape, ``async def handler(ctx, command) -> answer``, and the
command's class names its answer (``PlayCard`` is a ``Command[PlayAnswer]``).  A
handler registers itself where it is written, ``@handles(PlayCard)``
(app/rooms/commands/context.py, where mypy holds it to taking its command); this
module imports every handlers' module so that the table is whole, and is the table.
So a new command is its dataclass (app/rooms/domain/commands.py) and its handler,
decorated, beside the others in this package: no line here (a new module of handlers
adds its name to the import below).  tests/rooms/commands/test_table.py fails for a
command without a handler, and for a handler whose answer is not its command's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from ..domain.commands import Command
from . import assist, match, options, play, ready, rematch, seats, vacation
from .context import REGISTERED, Context, Handler

A = TypeVar("A")

MODULES = (assist, match, options, play, ready, rematch, seats, vacation)
"""The handlers' modules, imported for their ``@handles`` registrations."""

HANDLERS: Mapping[type[Command[Any]], Handler] = REGISTERED


async def execute(ctx: Context, command: Command[A]) -> A:
    """Run ``command``'s handler; its answer (a refusal raises ``ServiceError``)."""
    handler = HANDLERS.get(type(command))
    if handler is None:  # tests/rooms/commands/test_table.py: never, for a command of ours
        raise TypeError(f"no handler for {type(command).__name__}")
    answer: A = await handler(ctx, command)
    return answer
