"""Talking at the table and finding a game (issue 12): the new WebSocket messages as
pydantic models in one place, their handling, and the HTTP routes beside them.

Client -> server (docs/protocol.md): ``chat``, ``react``, ``continue``,
``spectator_chat``.  Server -> client: ``chat``, ``chat_history``, ``reaction`` (built
in app/rooms/chat.py) and the ``presence`` message's ``watching``.  None of them is a
move: only ``continue`` (a ``ready`` event) and ``spectator_chat`` (an ``option``
event) change the room, and so its seq.

Each connection has its own rate limits for chat lines and reactions, apart from the
general message limit: a refusal is an ``error`` with code ``chat_rate_limited``
(or ``reaction_rate_limited``) and changes nothing.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import (
    ValidationError,
)

from app.db.social import ChatRows
from app.limits.clients import client_address
from app.limits.rate import KeyedRateLimit
from app.rooms import chat as chat_kinds
from app.rooms.chat import Chat
from app.rooms.errors import ErrorCode, ServiceError
from app.rooms.lobby import PublicRooms
from app.rooms.pacing import press_continue
from app.rooms.service import RoomService
from app.wire import ChatSay, Continue, React, SpectatorChat

from .limits import RateLimited
from .rooms import ERRORS, RoomId

SOCIAL_MODELS = (ChatSay, React, Continue, SpectatorChat)
"""The client messages of app/wire/table.py that this module handles.  The socket
parses every message once, as any client message (``wire.parse_client``), and hands
the ones of these classes here."""

CHAT_RATE = (0.5, 5)
"""Chat lines a connection may send: one every 2 s, bursts of 5."""
REACTION_RATE = (1.0, 3)
"""Reactions: one a second, bursts of 3."""


class Bucket:
    """A token bucket for one connection and one kind of message."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class SocialLimits:
    """One connection's chat and reaction budgets."""

    def __init__(self) -> None:
        self.chat = Bucket(*CHAT_RATE)
        self.reactions = Bucket(*REACTION_RATE)


def is_social(msg: object) -> bool:
    """A parsed client message that this module handles."""
    return isinstance(msg, SOCIAL_MODELS)


async def handle(
    service: RoomService, chat: Chat, limits: SocialLimits, room_id: str, seat: int | None, msg: Any
) -> None:
    """One validated social message of a connection (raises ServiceError)."""
    if isinstance(msg, ChatSay):
        if not limits.chat.allow():
            raise ServiceError(
                ErrorCode.CHAT_RATE_LIMITED, "too many chat messages; wait a few seconds"
            )
        await chat.say(room_id, seat, msg.name, msg.text)
    elif isinstance(msg, React):
        if not limits.reactions.allow():
            raise ServiceError(ErrorCode.REACTION_RATE_LIMITED, "too many reactions; wait a moment")
        await chat.react(room_id, seat, msg.emote)
    elif isinstance(msg, Continue):
        await press_continue(service, room_id, seat)
    elif isinstance(msg, SpectatorChat):
        await chat.set_spectator_chat(room_id, seat, msg.on)


def install(
    app: Any, service: RoomService, chat: Chat, public: PublicRooms, list_per_minute: int = 120
) -> None:
    """Put the chat and the public list on ``app.state`` and let the broker deliver
    chat lines and reactions from the other processes."""
    app.state.chat = chat
    app.state.public_rooms = public
    app.state.public_list_limit = KeyedRateLimit(list_per_minute)
    service.on_broker_kind[chat_kinds.KIND] = chat.on_broker
    service.on_broker_kind[chat_kinds.REACTION_KIND] = chat.on_reaction


# -------------------------------------------------------------------- HTTP

router = APIRouter(prefix="/api", tags=["social"])


@router.get("/rooms/public", responses=ERRORS)
async def public_rooms(
    request: Request,
    kind: Literal["open", "live"] = Query(
        "open", description="open: rooms with free seats; live: games being played, to watch"
    ),
    cursor: str | None = Query(None, max_length=200, description="``next`` of the page before"),
    limit: int = Query(10, ge=1, le=50),
) -> dict[str, Any]:
    """Rooms their hosts listed publicly, newest first: seats, rules, deal in play,
    spectators.  Private rooms never appear.  Rate limited per address."""
    limiter: KeyedRateLimit = request.app.state.public_list_limit
    address = client_address(request.scope)
    if not limiter.allow(address):
        request.app.state.metrics.refused("public_list")
        wait = limiter.retry_after(address)
        raise RateLimited(
            f"too many lobby refreshes from your address; try again in {wait} s", wait
        )
    public: PublicRooms = request.app.state.public_rooms
    return await public.page(kind, cursor, limit)


@router.get("/rooms/{room_id}/chat", responses=ERRORS)
async def chat_lines(
    request: Request,
    room_id: str = RoomId,
    after: int = Query(0, ge=0, description="only lines after this id"),
    limit: int = Query(100, ge=1, le=500),
) -> dict[str, Any]:
    """A room's chat, oldest first (the history page shows it), with each line's
    ``hidden``: a spectator's line the players were not shown during play, listed
    here only once the match is over (players may read this too).  404 for no room."""
    chat: Chat = request.app.state.chat
    rows: ChatRows = chat.store  # type: ignore[assignment]
    try:
        status = await rows.room_status(room_id)
        if status is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no such room")
        lines = await rows.lines(room_id, after=after, limit=limit)
    except ServiceError:
        raise
    except Exception as exc:
        raise ServiceError(
            ErrorCode.UNAVAILABLE, "the database is not answering; try again"
        ) from exc
    nxt = lines[-1]["id"] if len(lines) == limit else None
    if status != "finished":
        lines = [ln for ln in lines if not ln["hidden"]]
    return {"messages": lines, "next": nxt}


__all__ = ["ValidationError", "handle", "install", "is_social", "router"]
