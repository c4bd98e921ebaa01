"""HTTP routes of quick pairing ("Find a game", app/pairing/): join a queue, poll the
ticket until it is seated, or leave.

Who asks is a signed-in account (its session cookie; the CSRF gate has checked a
POST or DELETE before any route runs) or else a browser's player key
(``X-Player-Key``); neither is 401.  Joining the queue makes a room, so the rule of
every route that makes one applies (app/api/rooms.py, ``MakesRoom``): the access
mode's (``ACCESS=accounts``: an account is needed), ROOM_CREATE_PER_MINUTE, and the
live-room caps of the address and the account; the room the ticket leads to counts
against the ticket's address (app/pairing/tickets.py).  The browser polls
``GET /api/pairing/{ticket}`` about once a second (the answer's ``poll_ms``): each poll
keeps the ticket alive and tries to form a table, and a seated ticket answers its room,
seat and seat token.  Polling rather than a socket: it passes every proxy, costs no
connection per waiting person, and is the heartbeat that tells a closed tab apart.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from fastapi import APIRouter, Header, HTTPException, Path, Response
from pydantic import BaseModel, Field

from app.accounts.service import Account, AccountError
from app.botplay.service import BOTS_NOT_ALLOWED
from app.core.errors import ErrorCode, ServiceError
from app.names import RESERVED_MESSAGE, bidi_control, is_reserved_name
from app.pairing.queue import TicketState
from app.pairing.seekers import Seeker, account_seeker, key_seeker
from app.players.players import KEY_PATTERN
from app.wire import Name

from .deps import PairingDep
from .rooms import MAKING, FormsRooms, MakesRoom
from .schemas import ErrorBody, Strict
from .session import MaybeAccount

router = APIRouter(prefix="/api/pairing", tags=["pairing"])
_KEY = re.compile(KEY_PATTERN)
TicketId = Path(pattern=r"^[A-Za-z0-9_-]{16,32}$", description="the ticket POST answered")
RESPONSES = {
    **MAKING,
    401: {"model": ErrorBody, "description": "no player key, no account; sign_in_required"},
    403: {"model": ErrorBody, "description": "bots_not_allowed: a bot account's token"},
}

KeyHeader = Annotated[
    str | None,
    Header(alias="X-Player-Key", description="the browser's player key (unless signed in)"),
]


class FindGame(Strict):
    players: int = Field(ge=2, le=6)
    """The table's size: 2 to 6 players (R1.3)."""
    pace: str = Field(default="live", max_length=32)
    """``live`` (the only pace until correspondence rooms exist)."""
    bots_after: int | None = Field(default=60, ge=0, le=3600)
    """Seconds of waiting after which free seats may go to bots; null: never."""
    name: Name | None = None
    """The name to sit under; required without an account (whose username is the default)."""


class TicketAnswer(BaseModel):
    ticket: str
    status: Literal["waiting", "forming", "matched"]
    players: int
    pace: str
    bots_after: int | None
    waited_ms: int
    """How long the ticket has waited (ms): for the waiting indicator."""
    poll_ms: int
    """Ask again after about this long while waiting."""
    room_id: str | None
    seat: int | None
    token: str | None
    """Once ``matched``: the room, the seat and its token (as POST /api/rooms answers)."""


def player_key(header: str | None) -> str | None:
    """The first player key of an ``X-Player-Key`` header (422 when malformed), or None."""
    keys = [k.strip() for k in (header or "").split(",") if k.strip()]
    if not keys:
        return None
    if not _KEY.fullmatch(keys[0]):
        raise HTTPException(422, "X-Player-Key: base64url of 22 to 64 characters")
    return keys[0]


def _seeker(account: Account | None, header: str | None, name: str | None) -> Seeker:
    key = player_key(header)
    if account is not None:
        return account_seeker(account.id, account.username, name, key)
    if key is None:
        raise HTTPException(401, "sign in, or send your player key in X-Player-Key")
    return key_seeker(key, name or "")


def _sittable(name: str) -> None:
    """The name a ticket's person will sit under, checked as a seat's is (app/names.py):
    refused now, not when its table forms and fails to seat them on every try."""
    problem = bidi_control(name)
    if problem is not None:
        raise ServiceError(ErrorCode.BAD_REQUEST, problem)
    if is_reserved_name(name):
        raise ServiceError(ErrorCode.NAME_RESERVED, RESERVED_MESSAGE)


@router.post("", status_code=202, response_model=TicketAnswer, responses=RESPONSES)
async def find_game(
    maker: MakesRoom,
    body: FindGame,
    pairing: PairingDep,
    x_player_key: KeyHeader = None,
) -> TicketState:
    """Wait for a table of ``players`` at ``pace``; 202 with a ticket to poll.  409
    ``already_queued`` when this player is waiting already.  A ticket is a room asked
    for: 401 ``sign_in_required`` when the access mode wants an account to make rooms,
    429 past ROOM_CREATE_PER_MINUTE or, ``too_many_rooms``, when this address (or
    account) holds as many live rooms as it may; the table's room counts against it."""
    if maker.account is not None and maker.account.bot:
        raise AccountError(
            403,
            BOTS_NOT_ALLOWED,
            "Find a game seats people: a bot plays by challenges (POST /api/bot/challenges) "
            "or when a room's player seats it by name",
        )
    seeker = _seeker(maker.account, x_player_key, body.name)
    if not seeker.name:
        raise HTTPException(422, "name: say what name to sit under")
    _sittable(seeker.name)
    return await pairing.find(seeker, body.players, body.pace, body.bots_after, maker.address)


@router.get("/{ticket}", response_model=TicketAnswer, responses=RESPONSES)
async def ticket_status(
    maker: FormsRooms,
    pairing: PairingDep,
    ticket: str = TicketId,
    x_player_key: KeyHeader = None,
) -> TicketState:
    """The ticket: ``waiting`` (``forming`` for a moment), then ``matched`` with the room,
    seat and token.  404 for a ticket that is not this player's, or that lapsed; 429
    ``too_many_rooms`` when its table was to be seated while its address held as many
    live rooms as it may (the ticket is then out of the queue; told by the process
    that found it, 404 on another).  A poll may form
    tables, so the access mode's rule for making rooms applies."""
    return await pairing.status(ticket, _seeker(maker.account, x_player_key, None))


@router.delete("/{ticket}", status_code=204, responses=RESPONSES)
async def leave_queue(
    pairing: PairingDep,
    account: MaybeAccount,
    ticket: str = TicketId,
    x_player_key: KeyHeader = None,
) -> Response:
    """Leave the queue.  409 ``already_matched`` once the ticket was seated."""
    await pairing.cancel(ticket, _seeker(account, x_player_key, None))
    return Response(status_code=204)
