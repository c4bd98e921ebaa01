"""Talking at the table and finding a game (issue 12): the table of the table talk's
WebSocket messages (their models are in app/wire/table.py), and the HTTP routes beside
them.

Client -> server (docs/protocol.md): ``chat``, ``react``, ``continue``, ``deal_shown``,
``spectator_chat``.  Server -> client: ``chat``, ``chat_history``, ``reaction`` (built
in app/social/chat.py) and the ``presence`` message's ``watching``.  None of them is a
move: only ``continue`` (a ``ready`` event), ``deal_shown`` (a ``shown`` event) and
``spectator_chat`` (an ``option`` event) change the room, and so its seq.

Each connection has its own rate limits for chat lines and reactions
(app/api/ws_messages.py, ``SocialLimits``), apart from the general message limit: a
refusal is an ``error`` with code ``chat_rate_limited`` (or ``reaction_rate_limited``)
and changes nothing.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request

from app.accounts.tokens import SESSION_COOKIE
from app.core.errors import ErrorCode, ServiceError
from app.rooms.domain import commands
from app.social.chat import ChatPage
from app.social.errors import SocialCode
from app.social.public_rooms import PublicPage
from app.wire import ChatSay, Continue, DealShownMessage, React, SpectatorChat

from .deps import ChatDep, ServicesDep, client_of
from .limits import RateLimited
from .rooms import ERRORS, RoomId
from .session import read_cookie
from .ws_messages import At, Table, on


async def _chat(at: At, msg: ChatSay) -> None:
    """A chat line, within the connection's budget; the name check comes first, as a
    refused name costs no budget."""
    services, seat = at.services, at.seat
    if seat is None and msg.name:
        # a spectator may not chat under another person's account name (issue 34)
        account = await services.accounts.current(read_cookie(at.conn.ws.cookies, SESSION_COOKIE))
        if await services.accounts.imitates(msg.name, account):
            raise ServiceError(ErrorCode.NAME_RESERVED, "this name is another player's account")
    if not at.limits.chat.allow():
        raise ServiceError(
            SocialCode.CHAT_RATE_LIMITED, "too many chat messages; wait a few seconds"
        )
    await services.chat.say(at.room_id, seat, msg.name, msg.text)


async def _react(at: At, msg: React) -> None:
    if not at.limits.reactions.allow():
        raise ServiceError(SocialCode.REACTION_RATE_LIMITED, "too many reactions; wait a moment")
    await at.services.chat.react(at.room_id, at.seat, msg.emote)


async def _continue(at: At, msg: Continue) -> None:
    await at.services.rooms.execute(commands.PressContinue(at.room_id, at.seat))


async def _deal_shown(at: At, msg: DealShownMessage) -> None:
    """Issue 47: a fresh clock on a deal the player had not seen."""
    shown = commands.ShowDeal(at.room_id, at.seat, msg.match_no, msg.deal_no)
    await at.services.rooms.execute(shown)


async def _spectator_chat(at: At, msg: SpectatorChat) -> None:
    await at.services.chat.set_spectator_chat(at.room_id, at.seat, msg.on)


HANDLERS: Table = dict(
    [
        on(ChatSay, _chat),
        on(React, _react),
        on(Continue, _continue),
        on(DealShownMessage, _deal_shown),
        on(SpectatorChat, _spectator_chat),
    ]
)
"""The client messages of app/wire/table.py and what each does.  The socket parses
every message once, as any client message (``wire.parse_client``), and looks its class
up in this table joined with the game's (app/api/ws.py)."""


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


__all__ = ["HANDLERS", "router"]
