"""Per-client-address rate limits on the HTTP calls worth abusing, as dependencies.

| call (under ``/api``) | setting | kind (metrics) |
|---|---|---|
| ``POST /rooms`` | ROOM_CREATE_PER_MINUTE (10) | ``room_create`` |
| ``POST /rooms/{room}/seats``, ``…/transfers``, ``…/reclaim`` | JOIN_PER_MINUTE (30) | ``join`` |
| ``GET /codes/{code}``, ``POST /transfers/claim`` | CODE_LOOKUP_PER_MINUTE (30) | ``code_lookup`` |

Each is a token bucket per address (app/limits/rate.py): N at once if need be,
then one every 60/N seconds, as the nginx example's ``limit_req`` does.  Rooms
and seats are rows in the database and rooms hold memory; a room code is 6
characters, so lookups must be too slow to guess codes with (an unlimited
client tried 403 a second).  A refusal is 429 ``rate_limited`` with
``Retry-After`` and changes nothing; it is counted in
``krypkasino_rate_limited_total{kind}``.  The address is the one uvicorn leaves
in the scope: X-Forwarded-For only from TRUSTED_PROXIES, and an IPv6 client counts
as its /IPV6_PREFIX network (app/limits/clients.py).

The dependencies run before the handler and before the body is validated, so a
refused client learns nothing more, and every attempt (valid or not) is counted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse

from app.limits.rate import KeyedRateLimit

from .deps import client_of, get_services
from .errors import error


class RateLimited(Exception):
    """429 rate_limited, with the seconds until the address may try again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message, self.retry_after = message, retry_after


def _limit(kind: str, what: str) -> Callable[[Request], Awaitable[None]]:
    async def check(request: Request) -> None:  # async: runs on the loop, not in a thread
        services = get_services(request)
        limiter: KeyedRateLimit = getattr(services.http_limits, kind)
        address = client_of(request)
        if limiter.allow(address):
            return
        services.metrics.refused(kind)
        wait = limiter.retry_after(address)
        per_minute = round(limiter.rate * 60)
        raise RateLimited(
            f"too many {what} from your address ({per_minute} a minute); try again in {wait} s",
            wait,
        )

    check.__name__ = f"limit_{kind}"
    return check


RoomCreateLimit = Annotated[None, Depends(_limit("room_create", "new rooms"))]
JoinLimit = Annotated[None, Depends(_limit("join", "seat requests"))]
CodeLookupLimit = Annotated[None, Depends(_limit("code_lookup", "room-code lookups"))]


def install(app: FastAPI) -> None:
    """The 429 answer of every per-address limit."""

    @app.exception_handler(RateLimited)
    async def _rate_limited(_: Request, exc: RateLimited) -> JSONResponse:
        response = error(429, "rate_limited", exc.message)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response
