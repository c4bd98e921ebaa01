"""Who may see a room's finished deals (issue 46): everyone, but for a room that played
a deal of the day not over yet, which is its player's alone.

Such a room shows every card of the day's deal once its deal is over (its record, its
replay, the coach's analysis, "Play this deal yourself"), and the day's next player is
dealt the same cards and meets the same bot answers.  So until the day is over (UTC,
the deal of the day's clock: app/daily/service.py's ``may_see``) only the player key
that played it (``X-Player-Key``; a browser may send several, comma-separated) or the
signed-in account that played it or holds its seat may see them; anyone else gets 403
``daily_private``.  Every route that shows a finished deal's cards, or deals them
again, takes ``DailyGuard`` (app/api/history.py, coach.py, daily.py, rooms.py).

This module imports no route module, so that any of them may import it.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Header, Path
from fastapi.responses import JSONResponse

from app.daily.errors import DailyCode
from app.players.players import KEY_PATTERN, MAX_KEYS, player_hash

from .deps import DailyDep
from .errors import error
from .session import MaybeAccount

DAILY_PRIVATE = DailyCode.DAILY_PRIVATE
DAILY_PRIVATE_STATUS = 403
_KEY = re.compile(KEY_PATTERN)
PlayerKeys = Annotated[
    str | None,
    Header(
        alias="X-Player-Key",
        description="the browser's player keys, comma-separated: a deal of the day's "
        "room is its player's until the day is over",
    ),
]


def key_hashes(header: str | None) -> list[str]:
    """The hashes of the well-formed player keys of an ``X-Player-Key`` header (the
    first MAX_KEYS); a malformed one is no one's key, so it opens nothing."""
    keys = [k.strip() for k in (header or "").split(",") if k.strip()][:MAX_KEYS]
    return [player_hash(k) for k in keys if _KEY.fullmatch(k)]


async def _daily_guard(
    daily: DailyDep,
    account: MaybeAccount,
    room_id: str = Path(pattern=r"^[0-9a-f]{32}$", description="the room's id"),
    x_player_key: PlayerKeys = None,
) -> JSONResponse | None:
    account_id = None if account is None else account.id
    if await daily.may_see(room_id, key_hashes(x_player_key), account_id):
        return None
    return error(
        DAILY_PRIVATE_STATUS,
        DAILY_PRIVATE,
        "this room played today's deal of the day: its deals are its player's alone "
        "until the day is over (UTC)",
    )


DailyGuard = Annotated[JSONResponse | None, Depends(_daily_guard)]
"""None when the room's finished deals may be shown to this request; else the 403
``daily_private`` to answer with.  A route takes it as ``refused: DailyGuard`` and
returns it when it is not None."""
