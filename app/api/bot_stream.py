"""The bot event stream and seating a bot by name (issue 51).

``GET /api/bot/stream`` is NDJSON over plain HTTP: one JSON object a line, as
lichess's bot API streams its events.  Why not a second WebSocket: a bot reads it
with any HTTP client (``curl -N``, ``urllib``), line by line, with no framing of its
own; it only flows one way, so a socket's other half would go unused; and a dropped
stream is mended by asking again, as every line it would have missed is told again
to a new stream (the games and open challenges as they are now).  What it says is
app/botplay/stream.py's; here is its delivery: a bounded buffer between the lines
made and the client, a client that does not read (the buffer full, or a line
unsent for SEND_TIMEOUT_S) dropped, and the stream ended cleanly (the body closed)
when its token is revoked or the server stops.

``POST /api/rooms/{room_id}/bots`` seats an online bot by name for a room's player.
The caller proves its seat with the seat's token, as the WebSocket's hello does:
that works for guests on an open server as for accounts, and is the one credential
every seat has (an account holds a seat only if signed in when taking it).  The seat
is the bot's: taken under its username, linked to its account, and its token is
never answered (whoever seated the bot cannot play its seat); the bot takes it with
its own token and hello ``own``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, StringConstraints
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.accounts.access_tokens import BOT_PLAY
from app.accounts.service import AccountError
from app.botplay.service import as_account
from app.botplay.stream import OpenStream
from app.core.errors import ErrorCode, ServiceError
from app.ratings import rated_rooms
from app.rooms.domain import commands

from .bearer import BAD_TOKEN, INSUFFICIENT_SCOPE
from .deps import RatingsDep, ServiceDep, ServicesDep, SettingsDep, client_of
from .rooms import RoomId
from .schemas import Strict, refusals
from .session import AccountsDep, bearer_of

router = APIRouter(prefix="/api", tags=["bot play"])

BUFFER = 64
"""Lines waiting for a slow reader; one more and the stream is dropped."""
SEND_TIMEOUT_S = 30.0
STREAM_ERRORS = refusals(
    {
        401: "``bad_token``: no ``Authorization: Bearer`` token (or an unknown one)",
        403: "``insufficient_scope`` (the token lacks ``bot:play``), ``not_a_bot_account``",
        429: "``too_many_streams``: the bot has 2 streams open; ``rate_limited``",
        503: "the database is not answering; try again",
    }
)
SEAT_ERRORS = refusals(
    {
        403: "``unauthorized``: the token holds no seat of this room; ``bots_not_rated``",
        404: "``bot_not_found``: no bot account has this name; ``not_found``: no such room",
        409: "``bot_offline``: the bot has no open stream; ``room_full``; ``closed``",
        429: "``rate_limited``: too many unknown seat tokens from this address",
        422: "``bad_request``",
        503: "the database is not answering; try again",
    }
)


class Ndjson(Response):
    """The stream's media type, as the OpenAPI schema names it (the route answers a
    ``StreamLines``)."""

    media_type = "application/x-ndjson"


class StreamLines(Response):
    """The stream's body, line by line (see the module's docstring)."""

    media_type = "application/x-ndjson"

    def __init__(self, stream: OpenStream) -> None:
        super().__init__(media_type=self.media_type)
        self.stream = stream

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(BUFFER + 1)

        def put(line: bytes) -> bool:
            if queue.qsize() >= BUFFER:
                return False
            queue.put_nowait(line)
            return True

        async def produce() -> str:
            try:
                return await self.stream.run(put)
            finally:
                queue.put_nowait(None)  # the room kept for it: the body ends after the last line

        async def deliver() -> bool:
            """Send every line; True once the body was ended cleanly."""
            while (line := await queue.get()) is not None:
                body = {"type": "http.response.body", "body": line, "more_body": True}
                await asyncio.wait_for(send(body), SEND_TIMEOUT_S)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return True

        async def left() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        tasks: list[asyncio.Task[object]] = []
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"application/x-ndjson"),
                        (b"cache-control", b"no-store"),
                        (b"x-accel-buffering", b"no"),  # a proxy passes each line on at once
                    ],
                }
            )
            tasks = [asyncio.create_task(f()) for f in (produce, deliver, left)]
            await asyncio.wait(tasks[1:], return_when=asyncio.FIRST_COMPLETED)
        finally:
            try:
                for task in tasks:
                    task.cancel()
                for task in tasks:  # a send that timed out drops the client (no clean end)
                    with contextlib.suppress(asyncio.CancelledError, TimeoutError, OSError):
                        await task
            finally:
                await self.stream.close()


STREAMED: dict[int | str, dict[str, object]] = {
    200: {
        "description": "NDJSON, one event a line, for as long as the bot stays connected: "
        '``{"type": "game", "room_id", "seat", "code"}``, ``{"type": "challenge", "id", '
        '"from", "players", "rules", "bots", "expires_ms"}``, ``{"type": "challenge_gone", '
        '"id"}``; an empty line every 15 s',
        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
    }
}


@router.get(
    "/bot/stream",
    response_model=None,
    response_class=Ndjson,
    responses={**STREAMED, **STREAM_ERRORS},
)
async def bot_stream(request: Request, services: ServicesDep) -> Response:
    """The bot's events, NDJSON: ``game`` for each live room it is seated in (once per
    stream), ``challenge`` and ``challenge_gone``, an empty line every 15 s.  A bot
    account's ``bot:play`` token only; at most 2 streams a bot."""
    found = bearer_of(request)
    if found is None:
        raise AccountError(401, BAD_TOKEN, "the bot stream needs Authorization: Bearer <token>")
    if not found.may(BOT_PLAY):
        raise AccountError(403, INSUFFICIENT_SCOPE, f"the bot stream needs {BOT_PLAY}")
    return StreamLines(await services.botplay.open(found))


class SeatBot(Strict):
    """POST /api/rooms/{room_id}/bots."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The bot account's username."""
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    """The caller's seat token of this room (as in the WebSocket's hello)."""


class BotSeated(BaseModel):
    room_id: str
    seat: int
    name: str
    """The bot's username: the seat's name."""


@router.post("/rooms/{room_id}/bots", status_code=201, response_model=BotSeated,
             responses=SEAT_ERRORS)  # fmt: skip
async def seat_bot(
    request: Request,
    body: SeatBot,
    services: ServicesDep,
    service: ServiceDep,
    accounts: AccountsDep,
    ratings: RatingsDep,
    settings: SettingsDep,
    room_id: str = RoomId,
) -> BotSeated:
    """Seat an online bot (one with an open stream) in the room's next free seat; the
    caller holds a seat of the room (its seat token).  The bot's stream is told the
    game; the bot takes the seat with its own token and hello ``own``."""
    options = await service.options(room_id)  # 404 for no such room
    address, misses = client_of(request), services.sockets.bad_tokens
    if not misses.available(address):  # as the WebSocket's hello: no guessing of tokens
        services.metrics.refused("bad_token")
        raise AccountError(429, "rate_limited", "too many unknown tokens; try again in a minute")
    if await service.seat_for_token(room_id, body.token) is None:
        misses.allow(address)  # counts the miss
        raise ServiceError(ErrorCode.UNAUTHORIZED, "this token holds no seat of this room")
    bot = await services.botplay.online_bot(body.name)
    if options.rated:
        seated = await ratings.seated_accounts(room_id)
        rated_rooms.check_join(bot.id, seated)
        rated_rooms.check_bot(True, settings.allow_rated_bots)
    seat = commands.JoinRoom(room_id, bot.username, distinct=True, outside_bot=True)
    taken = await service.execute(seat)
    await accounts.link_seat(as_account(bot), room_id, taken.seat, taken.token)
    services.botplay.wake(bot.id)
    return BotSeated(room_id=room_id, seat=taken.seat, name=bot.username)


__all__ = ["router"]
