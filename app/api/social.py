"""Talking at the table and finding a game (issue 12): the new WebSocket messages as
pydantic models in one place, their handling, and the HTTP routes beside them.

Client -> server (docs/protocol.md): ``chat``, ``react``, ``continue``,
``spectator_chat``.  Server -> client: ``chat``, ``chat_history``, ``reaction`` (built
in app/social/chat.py) and the ``presence`` message's ``watching``.  None of them is a
move: only ``continue`` (a ``ready`` event) and ``spectator_chat`` (an ``option``
event) change the room, and so its seq.

Each connection has its own rate limits for chat lines and reactions, apart from the
general message limit: a refusal is an ``error`` with code ``chat_rate_limited``
(or ``reaction_rate_limited``) and changes nothing.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request

from app.limits.rate import TokenBucket
from app.rooms.domain.errors import ErrorCode, ServiceError
from app.rooms.service import RoomService
from app.social.chat import Chat, ChatPage
from app.social.public_rooms import PublicPage
from app.wire import ChatSay, Continue, DealShownMessage, React, SpectatorChat

from .deps import ChatDep, ServicesDep, client_of
from .limits import RateLimited
from .rooms import ERRORS, RoomId

SOCIAL_MODELS = (ChatSay, React, Continue, DealShownMessage, SpectatorChat)
"""The client messages of app/wire/table.py that this module handles.  The socket
parses every message once, as any client message (``wire.parse_client``), and hands
the ones of these classes here."""

CHAT_RATE = (0.5, 5)
"""Chat lines a connection may send: one every 2 s, bursts of 5."""
REACTION_RATE = (1.0, 3)
"""Reactions: one a second, bursts of 3."""


class SocialLimits:
    """One connection's chat and reaction budgets."""

    def __init__(self) -> None:
        self.chat = TokenBucket(*CHAT_RATE)
        self.reactions = TokenBucket(*REACTION_RATE)


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
        await service.press_continue(room_id, seat)
    elif isinstance(msg, DealShownMessage):  # issue 47: a fresh clock on a deal not seen
        await service.deal_shown(room_id, seat, msg.match_no, msg.deal_no)
    elif isinstance(msg, SpectatorChat):
        await chat.set_spectator_chat(room_id, seat, msg.on)


# -------------------------------------------------------------------- HTTP

router = APIRouter(prefix="/api", tags=["social"])


@router.get("/rooms/public", response_model=None, responses=ERRORS)
async def public_rooms(
    request: Request,
    services: ServicesDep,
    kind: Literal["open", "live"] = Query(
        "open", description="open: rooms with free seats; live: games being played, to watch"
    ),
    cursor: str | None = Query(None, max_length=200, description="``next`` of the page before"),
    limit: int = Query(10, ge=1, le=50),
) -> PublicPage:
    """Rooms their hosts listed publicly, newest first: seats, rules, deal in play,
    spectators.  Private rooms never appear.  Rate limited per address."""
    limiter = services.edge.public_list_limit
    address = client_of(request)
    if not limiter.allow(address):
        services.metrics.refused("public_list")
        wait = limiter.retry_after(address)
        raise RateLimited(
            f"too many lobby refreshes from your address; try again in {wait} s", wait
        )
    return await services.public_rooms.page(kind, cursor, limit)


@router.get("/rooms/{room_id}/chat", response_model=None, responses=ERRORS)
async def chat_lines(
    chat: ChatDep,
    room_id: str = RoomId,
    after: int = Query(0, ge=0, description="only lines after this id"),
    limit: int = Query(100, ge=1, le=500),
) -> ChatPage:
    """A room's chat, oldest first (the history page shows it), with each line's
    ``hidden``: a spectator's line the players were not shown during play, listed
    here only once the match is over (players may read this too).  404 for no room."""
    return await chat.history(room_id, after, limit)


__all__ = ["handle", "is_social", "router"]
