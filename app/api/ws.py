"""The WebSocket endpoint: hello, then plays; an explicit state machine per connection.

Each connection owns a bounded outgoing queue drained by its own writer task,
so one slow client never holds up a room.  Every incoming message is size
checked, rate limited and validated before anything reaches the room service;
a refused message gets an ``error`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app import wire
from app.accounts.access import SIGN_IN_REQUIRED, AccessMode
from app.accounts.access_tokens import BOT_PLAY, Bearer
from app.accounts.tokens import SESSION_COOKIE
from app.core.errors import UNAVAILABLE, ServiceError
from app.limits.clients import client_key
from app.limits.rate import TokenBucket
from app.metrics import Metrics
from app.realtime.connection import CLOSE_POLICY, Connection
from app.services import Services
from app.tournaments.errors import TournamentCode, TournamentRefused

from . import bearer, social
from .bearer import INSUFFICIENT_SCOPE
from .deps import get_services
from .errors import wire_code
from .own_seat import own_seat
from .sealed_boards import SEALED
from .session import read_cookie
from .session_gate import origin_allowed
from .ws_messages import GAME, At, Table, handle, refuse

log = logging.getLogger("krypkasino.ws")

HANDLERS: Table = {**GAME, **social.HANDLERS}
"""Every client message a connection may send after its hello, and its handler: the
game's (app/api/ws_messages.py) and the table talk's (app/api/social.py).
tests/api/test_ws_messages.py holds it to the wire's registry, message for message."""

router = APIRouter()

CLOSE_TOO_BIG = 1009
CLOSE_SERVER_GOING = 1012
CLOSE_TRY_AGAIN = 1013
"""The room could not be opened because the database is away: reconnect later."""


class MessageTooBig(Exception):
    """A client message over MAX_MESSAGE_BYTES: the connection is closed with 1009.

    Its own class, so that no other error (an engine ValueError, a bug) can be taken
    for it and close a player's socket as "too big"."""


async def _receive_text(ws: WebSocket, limit: int) -> str | None:
    """The next text message; None when the client left; raises MessageTooBig."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    if text is None:
        data = msg.get("bytes") or b""
        if len(data) > limit:
            raise MessageTooBig(len(data))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return ""
    if len(text) > limit:
        raise MessageTooBig(len(text))
    return text


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(ws: WebSocket, room_id: str) -> None:
    """The socket's whole life, run as a task of its own.

    A coroutine awaited down a chain is resumed through every frame of the
    chain: here about twenty (uvicorn's ``run_asgi``, each middleware, the
    routers), twice for every play (the message arrives, its commit is done).
    A task of its own is stepped from its own first frame, and the ASGI chain
    wakes once, when the socket is over.  Cancelling the ASGI task cancels the
    task it awaits, so a server shutdown still reaches the session.

    The services come from ``get_services`` (app/api/deps.py), the accessor every
    route's dependencies use, called here directly: a FastAPI dependency on a
    WebSocket route keeps its solved state alive for the socket's whole life, about
    2 KB per idle connection (bench/idle_sockets.py: 48.1 against 46.4 KB).
    """
    await asyncio.create_task(_session(ws, room_id, get_services(ws)))


async def _session(ws: WebSocket, room_id: str, services: Services) -> None:
    service = services.rooms
    settings = services.settings
    metrics = services.metrics
    guard = services.sockets
    reviews = services.reviews
    address = client_key(ws.scope, settings.ipv6_prefix)  # an IPv6 client: its network
    await ws.accept()
    conn = Connection(ws)
    refused = guard.admit(address, room_id)
    if refused is not None:
        limit, message = refused
        metrics.refused(limit)
        if limit == "ws_total":  # not the client's doing: come back later
            conn.error("server_busy", message)
            conn.close(CLOSE_TRY_AGAIN)
        else:
            conn.error("too_many_connections", message)
            conn.close(CLOSE_POLICY)
        await conn.finish()
        return
    seat: int | None = None
    attached = False
    metrics.connections.inc()
    try:
        admitted = await _admitted(ws, conn, services)
        if admitted is None:
            return
        try:
            await service.runtime(room_id)
        except ServiceError as exc:
            refuse(conn, exc)
            conn.close(CLOSE_TRY_AGAIN if exc.code == UNAVAILABLE else CLOSE_POLICY)
            return
        hello = await _await_hello(ws, conn, services, address, room_id, admitted.bearer)
        if hello is None:
            return
        seat, attached = (None if hello == SPECTATOR else hello), True
        await reviews.attach(room_id, conn, seat)
        await services.chat.backlog(room_id, conn, seat)
        await _play(ws, conn, services, room_id, seat)
    except MessageTooBig:
        metrics.errors.labels("too_large").inc()
        conn.close(CLOSE_TOO_BIG)
    except WebSocketDisconnect:
        pass
    finally:
        metrics.connections.dec()
        guard.release(address, room_id)
        if attached:
            await reviews.detach(room_id, conn)
            await service.disconnect(room_id, seat, conn)
        if ws.client_state == WebSocketState.CONNECTED:
            await conn.finish()
        else:
            conn.task.cancel()


@dataclass(frozen=True, slots=True)
class Admitted:
    """A socket let in: with the personal access token it was opened with, if any."""

    bearer: Bearer | None


async def _admitted(ws: WebSocket, conn: Connection, services: Services) -> Admitted | None:
    """A socket that carries the session cookie must come from one of this site's pages
    (its Origin, as for HTTP: app/api/session_gate.py), else ``bad_origin``, closed
    1008; one without the cookie (a bot, a test) may come from anywhere.
    A socket opened with ``Authorization: Bearer`` (an outside bot, issue 51) gets the
    refusals of an HTTP request with it (app/api/bearer.py: ``ambiguous_credentials``
    beside the cookie, ``bad_token``, ``rate_limited``), closed 1008, and is its
    token's account's.
    ACCESS=members: only a signed-in account may open a room's socket, spectators
    included (``sign_in_required``, closed 1008).  None: refused."""
    settings = services.settings
    token = read_cookie(ws.cookies, SESSION_COOKIE)
    found: Bearer | None = None
    values = bearer.authorization(ws.scope.get("headers", ()))
    if values:
        checked = await bearer.check(services, ws.scope, values, token is not None, "GET", "")
        if isinstance(checked, bearer.Refusal):
            conn.error(checked.code, checked.message)
            conn.close(CLOSE_TRY_AGAIN if checked.status == 503 else CLOSE_POLICY)
            return None
        found = checked
    if token is not None and not origin_allowed(
        ws.scope, settings.public_url, settings.allowed_origins
    ):
        conn.error("bad_origin", "a signed-in socket must come from this site's pages")
        conn.close(CLOSE_POLICY)
        return None
    if AccessMode(settings.access) is not AccessMode.MEMBERS or found is not None:
        return Admitted(found)
    try:
        account = await services.accounts.current(token)
    except ServiceError as exc:
        refuse(conn, exc)
        conn.close(CLOSE_TRY_AGAIN)
        return None
    if account is None:
        conn.error(SIGN_IN_REQUIRED, "sign in: this server is for its members only")
        conn.close(CLOSE_POLICY)
        return None
    return Admitted(None)


SPECTATOR = -1
"""``_await_hello``'s answer for a connection without a seat."""


async def _await_hello(
    ws: WebSocket,
    conn: Connection,
    services: Services,
    address: str,
    room_id: str,
    token_of: Bearer | None = None,
) -> int | None:
    """State 1: until a hello is accepted; returns the connection's seat (SPECTATOR for
    none), or None when the connection ends here.  A hello without a token but with
    ``own`` takes the seat its account or player keys hold, if any (app/api/own_seat.py).
    A socket opened with a personal access token without ``bot:play`` (``token_of``)
    only watches: a seat's token in its hello is refused (``insufficient_scope``), and
    ``own`` leaves it a spectator.

    The deadline is fixed from the moment the socket opened, and only a few messages
    may come before the hello: a client sending junk every few seconds cannot keep an
    unauthenticated socket (and its token lookups) going forever.
    """
    settings, metrics, guard = services.settings, services.metrics, services.sockets
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.hello_timeout
    budget = settings.hello_messages
    while True:
        try:
            text = await asyncio.wait_for(
                _receive_text(ws, settings.max_message_bytes), max(0.0, deadline - loop.time())
            )
        except TimeoutError:
            metrics.refused("ws_hello")
            conn.error("bad_message", f"say hello within {settings.hello_timeout:g} seconds")
            conn.close(CLOSE_POLICY)
            return None
        if text is None:
            return None
        budget -= 1
        if budget < 0:
            metrics.refused("ws_hello")
            conn.error("bad_message", "too many messages before hello")
            conn.close(CLOSE_POLICY)
            return None
        try:
            msg = wire.parse_client(text)
        except ValidationError as exc:
            conn.error("bad_message", _first_error(exc))
            continue
        if not isinstance(msg, wire.Hello):
            conn.error("bad_message", "the first message must be hello")
            continue
        seat: int | None = None
        last_seq = msg.last_seq
        try:
            player = token_of is None or token_of.may(BOT_PLAY)
            if msg.token is not None and not player:
                conn.error(
                    INSUFFICIENT_SCOPE, f"this token may only watch: playing needs {BOT_PLAY}"
                )
                continue
            if msg.token is None and msg.own and player:  # its saved view may be a spectator's
                account = None if token_of is None else token_of.account
                seat = await own_seat(services, ws.cookies, room_id, msg.keys, account)
                last_seq = None if seat is not None else last_seq
            elif msg.token is not None:
                if not guard.bad_tokens.available(address):
                    metrics.refused("bad_token")
                    conn.error(
                        "rate_limited",
                        "too many unknown tokens from your address; try again in a minute",
                    )
                    conn.close(CLOSE_POLICY)
                    return None
                seat = await services.rooms.seat_for_token(room_id, msg.token)
                if seat is None:
                    guard.bad_tokens.allow(address)  # counts the miss
                    metrics.errors.labels("unauthorized").inc()
                    conn.error("unauthorized", "unknown token for this room")
                    continue
            if seat is None and await services.tournaments.sealed(room_id):
                raise TournamentRefused(TournamentCode.BOARD_SEALED, SEALED)  # issue 49
            await services.rooms.connect(room_id, seat, conn, last_seq)
        except ServiceError as exc:  # the database is away, a sealed board: come back later
            metrics.errors.labels(wire_code(exc)).inc()
            refuse(conn, exc)
            conn.close(CLOSE_TRY_AGAIN if exc.code == UNAVAILABLE else CLOSE_POLICY)
            return None
        return SPECTATOR if seat is None else seat


async def _play(
    ws: WebSocket, conn: Connection, services: Services, room_id: str, seat: int | None
) -> None:
    """State 2: plays and other messages, rate limited, until the client leaves."""
    settings, metrics = services.settings, services.metrics
    limiter = TokenBucket(settings.rate_per_second, settings.rate_burst)
    at = At(conn, services, room_id, seat)
    while True:
        text = await _receive_text(ws, settings.max_message_bytes)
        if text is None:
            return
        if not limiter.allow():
            metrics.errors.labels("rate_limited").inc()
            metrics.refused("ws_message")
            if limiter.refused > settings.rate_abuse_limit:
                conn.close(CLOSE_POLICY)
                return
            conn.error("rate_limited", "too many messages; slow down", _peek_id(text))
            continue
        msg = _parse(conn, text, metrics)
        if msg is None:
            continue
        await handle(at, msg, HANDLERS)


def _parse(conn: Connection, text: str, metrics: Metrics) -> BaseModel | None:
    """The validated message (parsed once, whatever its type), or None after telling
    the client what was wrong with it."""
    try:
        return wire.parse_client(text)
    except ValidationError as exc:
        metrics.errors.labels("bad_message").inc()
        conn.error("bad_message", _first_error(exc), _peek_id(text))
        return None


def _first_error(exc: ValidationError) -> str:
    errs = exc.errors()
    if not errs:
        return "invalid message"
    e = errs[0]
    where = ".".join(str(p) for p in e.get("loc", ()))
    return f"{where}: {e.get('msg')}" if where else str(e.get("msg"))


def _peek_id(text: str) -> str | None:
    """The id of a malformed message, if it has a sensible one, to echo in the error."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    msg_id = data.get("id") if isinstance(data, dict) else None
    return msg_id if isinstance(msg_id, str) and len(msg_id) <= 64 else None
