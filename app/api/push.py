"""HTTP routes of Web Push (issue 32): the server's public key, and a browser's
subscription kept or dropped under its player key (docs/protocol.md, "Web Push").

New subscriptions are limited per client address (PUSH_SUBSCRIBE_PER_MINUTE: 429
``rate_limited`` with Retry-After, counted as ``push_subscribe`` in
``krypkasino_rate_limited_total``), checked before the body is read, as the limits of
app/api/limits.py are; how many a key and an account keep is the service's
(``PushLimits``, app/notify/service.py).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field, StringConstraints
from starlette.requests import HTTPConnection

from app.core.json import JsonObject
from app.notify.service import LANGS, PushLimits, PushService
from app.notify.webpush import BadSubscription

from .deps import client_of, get_services
from .errors import error
from .limits import RateLimited
from .players import KeyHeader, _keys
from .schemas import Strict

router = APIRouter(prefix="/api/push", tags=["push"])


def _push(conn: HTTPConnection) -> PushService | None:
    services = get_services(conn)
    push = services.push
    if push is not None:
        # the settings' limits (until app/features.py hands them to the service when
        # building it); the same values every time, so the rate limit keeps its buckets
        push.configure(PushLimits.from_settings(services.settings))
    return push


PushDep = Annotated[PushService | None, Depends(_push)]


async def _subscribe_limit(request: Request) -> None:
    """PUSH_SUBSCRIBE_PER_MINUTE per client address (async: runs on the loop)."""
    services = get_services(request)
    push = _push(request)
    if push is None:
        return
    address = client_of(request)
    if push.subscribe_limit.allow(address):
        return
    services.metrics.refused("push_subscribe")
    wait = push.subscribe_limit.retry_after(address)
    per_minute = round(push.subscribe_limit.rate * 60)
    raise RateLimited(
        f"too many push subscriptions from your address ({per_minute} a minute); "
        f"try again in {wait} s",
        wait,
    )


SubscribeLimit = Annotated[None, Depends(_subscribe_limit)]


class SubscribeBody(Strict):
    subscription: JsonObject
    """``PushSubscription.toJSON()``: endpoint and keys {p256dh, auth}."""
    lang: Annotated[str, StringConstraints(pattern="^(" + "|".join(LANGS) + ")$")] = "en"
    """The language the notices are worded in (the client's)."""


class UnsubscribeBody(Strict):
    endpoint: Annotated[str, Field(min_length=1, max_length=2000)]


def _off() -> Response:
    return error(404, "push_off", "Web Push is switched off on this server")


@router.get("/key")
async def public_key(push: PushDep) -> Any:
    """The server's VAPID public key, for ``PushManager.subscribe``."""
    if push is None:
        return _off()
    return {"public_key": await push.public_key()}


@router.post("/subscriptions", status_code=201)
async def subscribe(
    _: SubscribeLimit, body: SubscribeBody, push: PushDep, x_player_key: KeyHeader = None
) -> Any:
    """Keep this browser's subscription: its player key's turns will be told to it (the
    oldest of the key's, or of its account's, beyond the cap make way)."""
    if push is None:
        return _off()
    key = _keys(x_player_key, required=True)[0]
    try:
        await push.subscribe(key, body.subscription, body.lang)
    except BadSubscription as exc:
        return error(422, exc.code, str(exc))
    return {"subscribed": True}


@router.delete("/subscriptions", status_code=204, response_model=None)
async def unsubscribe(
    body: UnsubscribeBody, push: PushDep, x_player_key: KeyHeader = None
) -> Response:
    """Forget this browser's subscription (404 when this key had none at it)."""
    if push is None:
        return _off()
    key = _keys(x_player_key, required=True)[0]
    if not await push.unsubscribe(key, body.endpoint):
        return error(404, "not_found", "no such subscription for this player key")
    return Response(status_code=204)
