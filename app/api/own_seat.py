"""A player's own seat, wherever they are (issue 47).

A room's link seats the person who holds one of its seats on every device: the
signed-in account stored on the seat (the session cookie), or a browser holding
the player key whose hash is on it.  The seat's token is left as it is, so the
player's other devices keep their seat too (unlike "reclaim", which moves it).

The server decides: it reads the account from the cookie itself, and a key is
matched by its hash on the seat; nothing the client names (a seat number, an
account) is taken on trust.  Whoever holds no seat of the room stays a spectator.
The WebSocket hello (``own``, app/api/ws.py) asks here; the page's
``GET /api/rooms/{id}/seats/mine`` (app/api/players.py) asks ``Players.held_seat``
the same question with the request's account.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.accounts.service import Account
from app.accounts.tokens import SESSION_COOKIE
from app.services import Services

from .session import read_cookie


async def own_seat(
    services: Services,
    cookies: Mapping[str, str],
    room_id: str,
    keys: Sequence[str],
    signed_in: Account | None = None,
) -> int | None:
    """The seat the session cookie's account (or ``signed_in``, the account of the
    socket's personal access token), or one of these player keys, holds in the room;
    None for anyone else.  Raises ServiceError (unavailable) when the database is away."""
    account = signed_in or await services.accounts.current(read_cookie(cookies, SESSION_COOKIE))
    return await services.players.held_seat(room_id, keys, account.id if account else None)
