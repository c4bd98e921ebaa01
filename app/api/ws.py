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
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app import wire
from app.config import Settings
from app.limits.clients import client_address
from app.limits.sockets import SocketGuard
from app.rooms.errors import UNAVAILABLE, ServiceError
from app.rooms.review import Reviews
from app.rooms.service import RoomService
from app.wsdeflate import SOCKET_EXTENSION, DirectSend

from . import social
from .errors import wire_code

log = logging.getLogger("krypkasino.ws")
router = APIRouter()

QUEUE_LIMIT = 2000
"""Messages waiting for a slow client before it is dropped (it reconnects for a snapshot)."""
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_GOING = 1012
CLOSE_TRY_AGAIN = 1013
"""The room could not be opened because the database is away: reconnect later."""


class Connection:
    """One socket's outgoing side: a queue and the task that writes it."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.direct: DirectSend | None = ws.scope.get("extensions", {}).get(SOCKET_EXTENSION)
        """Writes a message at once when nothing is waiting before it (see DirectSend)."""
        self.writing = False
        """True while the writer task holds a message it has not finished sending."""
        self.held: list[str] | None = None
        """Messages gathered while the socket's own play is handled (``hold``)."""
        self.task = asyncio.create_task(self._write())

    def send_text(self, text: str) -> None:
        if self.held is not None:
            self.held.append(text)
            return
        direct = self._direct()
        if direct is not None and direct.send_text(text):
            return  # nothing could be overtaken: written straight to the socket
        self._enqueue(text)

    def hold(self) -> None:
        """Gather what is sent from now until ``release``: the patch of a player's own
        play and its ack then leave in one write instead of two."""
        if self.held is None:
            self.held = []

    def release(self) -> None:
        held, self.held = self.held, None
        if not held:
            return
        direct = self._direct()
        if direct is not None and direct.send_texts(held):
            return
        for text in held:
            self._enqueue(text)

    def _direct(self) -> DirectSend | None:
        """The direct path, when nothing is waiting that a new message could overtake."""
        if self.writing or not self.queue.empty():
            return None
        return self.direct

    def _enqueue(self, text: str) -> None:
        if self.queue.qsize() > QUEUE_LIMIT:
            self.close(CLOSE_POLICY)
            return
        self.queue.put_nowait(text)

    def error(self, code: str, message: str, msg_id: str | None = None) -> None:
        self.send_text(wire.error_message(code, message, msg_id))

    def refuse(self, exc: ServiceError, msg_id: str | None = None) -> None:
        """A refusal of the room service, with the code clients know it by."""
        self.error(wire_code(exc), exc.message, msg_id)

    def close(self, code: int) -> None:
        self.release()  # what was held goes out before the close
        self.queue.put_nowait(code)

    async def _write(self) -> None:
        try:
            while True:
                self.writing = False
                item = await self.queue.get()
                self.writing = True
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                await self.ws.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def finish(self) -> None:
        """Let queued messages (e.g. a last error) go out, then stop the writer."""
        self.close(1000)
        try:
            await asyncio.wait_for(self.task, timeout=2)
        except (TimeoutError, Exception):
            self.task.cancel()


class RateLimiter:
    """Token bucket: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


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
    """
    await asyncio.create_task(_session(ws, room_id))


async def _session(ws: WebSocket, room_id: str) -> None:
    service: RoomService = ws.app.state.service
    settings: Settings = ws.app.state.settings
    metrics = ws.app.state.metrics
    guard: SocketGuard = ws.app.state.sockets
    reviews: Reviews = ws.app.state.reviews
    address = client_address(ws.scope)
    await ws.accept()
    conn = Connection(ws)
    refused = guard.admit(address, room_id)
    if refused is not None:
        limit, message = refused
        metrics.refused(limit)
        conn.error("too_many_connections", message)
        conn.close(CLOSE_POLICY)
        await conn.finish()
        return
    seat: int | None = None
    attached = False
    metrics.connections.inc()
    try:
        try:
            await service.runtime(room_id)
        except ServiceError as exc:
            conn.refuse(exc)
            conn.close(CLOSE_TRY_AGAIN if exc.code == UNAVAILABLE else CLOSE_POLICY)
            return
        hello = await _await_hello(ws, conn, service, settings, metrics, guard, address, room_id)
        if hello is None:
            return
        seat, attached = (None if hello == SPECTATOR else hello), True
        await reviews.attach(room_id, conn, seat)
        await ws.app.state.chat.backlog(room_id, conn, seat)
        await _play(ws, conn, service, settings, metrics, room_id, seat, reviews)
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


SPECTATOR = -1
"""``_await_hello``'s answer for a connection without a seat."""


async def _await_hello(
    ws: WebSocket,
    conn: Connection,
    service: RoomService,
    settings: Settings,
    metrics: Any,
    guard: SocketGuard,
    address: str,
    room_id: str,
) -> int | None:
    """State 1: until a hello is accepted; returns the connection's seat (SPECTATOR for
    none), or None when the connection ends here.

    The deadline is fixed from the moment the socket opened, and only a few messages
    may come before the hello: a client sending junk every few seconds cannot keep an
    unauthenticated socket (and its token lookups) going forever.
    """
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
        try:
            if msg.token is not None:
                if not guard.bad_tokens.available(address):
                    metrics.refused("bad_token")
                    conn.error(
                        "rate_limited",
                        "too many unknown tokens from your address; try again in a minute",
                    )
                    conn.close(CLOSE_POLICY)
                    return None
                seat = await service.seat_for_token(room_id, msg.token)
                if seat is None:
                    guard.bad_tokens.allow(address)  # counts the miss
                    metrics.errors.labels("unauthorized").inc()
                    conn.error("unauthorized", "unknown token for this room")
                    continue
            await service.connect(room_id, seat, conn, msg.last_seq)
        except ServiceError as exc:  # the database is away: come back later
            metrics.errors.labels(wire_code(exc)).inc()
            conn.refuse(exc)
            conn.close(CLOSE_TRY_AGAIN if exc.code == UNAVAILABLE else CLOSE_POLICY)
            return None
        return SPECTATOR if seat is None else seat


async def _play(
    ws: WebSocket,
    conn: Connection,
    service: RoomService,
    settings: Settings,
    metrics: Any,
    room_id: str,
    seat: int | None,
    reviews: Reviews,
) -> None:
    """State 2: plays and other messages, rate limited, until the client leaves."""
    limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
    chatting = social.SocialLimits()
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
        if social.is_social(msg):
            await _handle_social(ws, conn, room_id, seat, msg, metrics, reviews, chatting)
            continue
        await _handle(service, conn, room_id, seat, msg, metrics, reviews)


def _parse(conn: Connection, text: str, metrics: Any) -> Any:
    """The validated message (parsed once, whatever its type), or None after telling
    the client what was wrong with it."""
    try:
        return wire.parse_client(text)
    except ValidationError as exc:
        metrics.errors.labels("bad_message").inc()
        conn.error("bad_message", _first_error(exc), _peek_id(text))
        return None


async def _handle_social(
    ws: WebSocket,
    conn: Connection,
    room_id: str,
    seat: int | None,
    msg: Any,
    metrics: Any,
    reviews: Reviews,
    limits: social.SocialLimits,
) -> None:
    """Chat, reactions, Continue, the host's spectator-chat switch (app/api/social.py)."""
    if reviews.moved(room_id, conn):
        return
    try:
        await social.handle(ws.app.state.service, ws.app.state.chat, limits, room_id, seat, msg)
    except ServiceError as exc:
        metrics.errors.labels(wire_code(exc)).inc()
        conn.refuse(exc)
    except Exception:
        log.exception("message failed", extra={"room": room_id})
        metrics.errors.labels("internal").inc()
        conn.error("internal", "the server could not handle this message; nothing changed")


async def _handle(
    service: RoomService,
    conn: Connection,
    room_id: str,
    seat: int | None,
    msg: Any,
    metrics: Any,
    reviews: Reviews | None = None,
) -> None:
    if reviews is not None and reviews.moved(room_id, conn):
        return  # its seat moved to another device; the socket is being closed
    try:
        if isinstance(msg, wire.Play):
            conn.hold()
            try:
                result = await service.play(room_id, seat, msg.id, msg.card, list(msg.take or []))
                conn.send_text(wire.ack_message(msg.id, result["seq"], result["duplicate"]))
            finally:
                conn.release()
        elif isinstance(msg, wire.Rematch):
            await service.rematch(room_id, seat)
        elif isinstance(msg, wire.Ping):
            conn.send_text(wire.PONG)
        elif isinstance(msg, wire.Hello):
            conn.error("bad_message", "hello was already said")
        elif isinstance(msg, wire.REVIEW_MESSAGES) and reviews is not None:
            await reviews.handle(room_id, conn, msg)
    except ServiceError as exc:
        metrics.errors.labels(wire_code(exc)).inc()
        conn.refuse(exc, getattr(msg, "id", None))
    except Exception:  # a bug must not cost the player their socket
        log.exception("message failed", extra={"room": room_id})
        metrics.errors.labels("internal").inc()
        conn.error(
            "internal",
            "the server could not handle this message; nothing changed",
            getattr(msg, "id", None),
        )


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
