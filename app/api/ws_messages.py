"""What a WebSocket does with each message once it is parsed: one table from the wire's
message type to its handler, as the wire's registry maps each ``type`` to its model.

A connection that said hello hands every further message to ``handle``: the message's
class is looked up in the table (the game's here, ``GAME``; the table talk's in
app/api/social.py; both joined in app/api/ws.py), and its handler is given where the
message came from (``At``) and the message, typed as its own model.  A handler turns
the message into a room command (app/rooms/domain/commands.py) or a feature's call and
answers the connection; a refusal (``ServiceError``) is answered with its code by
``answered``, around every handler.

Adding a client message is its model in app/wire/ and a line in one table: a model of
the wire's registry without one fails tests/api/test_ws_messages.py, and mypy holds each
line to a handler that takes its model (``on``).  A seat's command that the socket only
hands on needs no line: marked ``@sent_as(...)`` where it is defined
(app/rooms/domain/commands.py), its line is made here (``seat_commands``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from pydantic import BaseModel

from app import wire
from app.core.errors import ServiceError
from app.limits.rate import TokenBucket
from app.metrics import Metrics
from app.realtime.connection import Connection
from app.rooms.domain import commands
from app.services import Services

from .errors import wire_code

log = logging.getLogger("krypkasino.ws")

CHAT_RATE = (0.5, 5)
"""Chat lines a connection may send: one every 2 s, bursts of 5."""
REACTION_RATE = (1.0, 3)
"""Reactions: one a second, bursts of 3."""


class SocialLimits:
    """One connection's chat and reaction budgets (apart from the general message
    limit: app/api/social.py refuses with ``chat_rate_limited``...)."""

    def __init__(self) -> None:
        self.chat = TokenBucket(*CHAT_RATE)
        self.reactions = TokenBucket(*REACTION_RATE)


@dataclass(slots=True, eq=False)
class At:
    """Where a message came from: the connection, in its room and seat (None: a
    spectator), with the server's services and the connection's own budgets."""

    conn: Connection
    services: Services
    room_id: str
    seat: int | None
    limits: SocialLimits = field(default_factory=SocialLimits)


M = TypeVar("M", bound=BaseModel)
Handler = Callable[[At, Any], Awaitable[None]]
Table = Mapping[type[BaseModel], Handler]


def on(
    kind: type[M], handler: Callable[[At, M], Awaitable[None]]
) -> tuple[type[BaseModel], Handler]:
    """One line of a table (a function, so that mypy checks that ``handler`` takes
    ``kind``'s messages)."""
    return kind, handler


def refuse(conn: Connection, exc: ServiceError, msg_id: str | None = None) -> None:
    """A refusal of the room service, with the code clients know it by."""
    conn.error(wire_code(exc), exc.message, msg_id)


@contextmanager
def answered(
    conn: Connection, metrics: Metrics, room_id: str, msg_id: str | None = None
) -> Iterator[None]:
    """Around the handling of one message: a refusal is answered with its code; any
    other failure is a bug, logged and answered ``internal`` (a command that raised
    committed nothing)."""
    try:
        yield
    except ServiceError as exc:
        metrics.errors.labels(wire_code(exc)).inc()
        refuse(conn, exc, msg_id)
    except Exception:  # a bug must not cost the player their socket
        log.exception("message failed", extra={"room": room_id})
        metrics.errors.labels("internal").inc()
        conn.error("internal", "the server could not handle this message; nothing changed", msg_id)


async def handle(at: At, msg: BaseModel, table: Table) -> None:
    """One parsed message of a connection that said hello, through its line of
    ``table``.  Nothing from a connection whose seat moved to another device (its
    socket is being closed)."""
    services = at.services
    if services.reviews.moved(at.room_id, at.conn):
        return
    with answered(at.conn, services.metrics, at.room_id, getattr(msg, "id", None)):
        await table[type(msg)](at, msg)


# ------------------------------------------------------------------ the game


async def _play(at: At, msg: wire.Play) -> None:
    """A card played: acknowledged in the same write as the player's own patch."""
    conn = at.conn
    conn.hold()
    try:
        play = commands.PlayCard(at.room_id, at.seat, msg.card, tuple(msg.take or ()), msg.id)
        result = await at.services.rooms.execute(play)
        conn.send_text(wire.ack_message(msg.id, result.seq, result.duplicate))
    finally:
        conn.release()


async def _ping(at: At, msg: wire.Ping) -> None:
    at.conn.send_text(wire.PONG)


async def _hello_again(at: At, msg: wire.Hello) -> None:
    at.conn.error("bad_message", "hello was already said")


async def _hint(at: At, msg: wire.AskHint) -> None:
    """To this connection only: it names a card in hand."""
    hint = await at.services.rooms.execute(commands.AskHint(at.room_id, at.seat))
    at.conn.send_text(wire.hint_message(hint.seq, hint.card, list(hint.take)))


def _seat_command(command: Callable[..., commands.Command[Any]], model: type[BaseModel]) -> Handler:
    """The handler of a message marked ``sent_as`` (app/rooms/domain/commands.py): the
    command, made of the connection's room and seat and the message's fields of the
    command's names.  A field the message lacks is refused here, at import."""
    names = [f.name for f in fields(command) if f.name not in ("room_id", "seat")]  # type: ignore[arg-type]
    missing = [name for name in names if name not in model.model_fields]
    if missing:
        raise TypeError(f"{model.__name__} lacks {missing} for {command.__name__}")

    async def send(at: At, msg: BaseModel) -> None:
        asked = {name: getattr(msg, name) for name in names}
        await at.services.rooms.execute(command(room_id=at.room_id, seat=at.seat, **asked))

    send.__name__ = f"_{model.__name__}"
    return send


def seat_commands() -> Iterator[tuple[type[BaseModel], Handler]]:
    """A line for each message marked ``sent_as``: a rematch and its refusal, a
    vacation, a take-back (their patches say what they did)."""
    models = {wire.message_type(model): model for model in wire.CLIENT_MESSAGES}
    for message_type, command in commands.SENT_AS.items():
        model = models[message_type]
        yield model, _seat_command(command, model)


async def _review(at: At, msg: BaseModel) -> None:
    """A shared review's messages (app/review/review.py reads which)."""
    await at.services.reviews.handle(at.room_id, at.conn, msg)


GAME: Table = dict(
    [
        on(wire.Hello, _hello_again),
        on(wire.Play, _play),
        on(wire.Ping, _ping),
        on(wire.AskHint, _hint),
        *(on(kind, _review) for kind in wire.REVIEW_MESSAGES),
        *seat_commands(),
    ]
)
"""The game's messages: a play, a hint, a ping, the review, and the seat commands
marked ``sent_as`` (a rematch, a vacation, a take-back)."""
