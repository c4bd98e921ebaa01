"""A duplicate board stays sealed until every table of its event has played it
(issue 49): nobody may learn its cards or results from a room of it before then.

Over HTTP, for a sealed board's room (``Tournaments.sealed``):

- its records are refused to everyone, its own players included (403
  ``board_sealed``): ``/api/rooms/{id}/deals/...`` and ``/matches...`` (the match's
  download, a deal's record, the coach's analysis, "play this deal yourself", the
  rating's change);
- its summary and its chat are for its seated players only (the session cookie's
  account, or the X-Player-Key header's key, holds a seat: app/api/own_seat.py).

Over the WebSocket a hello that takes no seat of a sealed board's room is refused
the same way (app/api/ws.py).  Pure ASGI middleware: it reads the path only, and asks
the database only for paths of a room.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from app.core.asgi import HttpMiddleware
from app.tournaments.errors import TournamentCode

from .deps import get_services
from .errors import error
from .own_seat import own_seat

ROOM_PATH = re.compile(r"^/api/rooms/([0-9a-f]{32})(?:/(deals|matches|chat)(?:/.*)?)?$")
SEALED = "this board is sealed until every table of the event has played it"


class SealedBoards(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = ROOM_PATH.match(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        room_id, part = found.group(1), found.group(2)
        request = Request(scope)
        services = get_services(request)
        if await services.tournaments.sealed(room_id):
            record = part in ("deals", "matches")
            keys = [k for k in [request.headers.get("x-player-key")] if k]
            if record or await own_seat(services, request.cookies, room_id, keys) is None:
                await error(403, TournamentCode.BOARD_SEALED, SEALED)(scope, receive, send)
                return
        await self.app(scope, receive, send)
