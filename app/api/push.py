"""HTTP routes of Web Push (issue 32): the server's public key, and a browser's
subscription kept or dropped under its player key (docs/protocol.md, "Web Push")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response
from pydantic import Field, StringConstraints
from starlette.requests import HTTPConnection

from app.notify.service import LANGS, PushService
from app.notify.webpush import BadSubscription

from .deps import get_services
from .errors import error
from .players import KeyHeader, _keys
from .schemas import Strict

router = APIRouter(prefix="/api/push", tags=["push"])


def _push(conn: HTTPConnection) -> PushService | None:
    return get_services(conn).push


PushDep = Annotated[PushService | None, Depends(_push)]


class SubscribeBody(Strict):
    subscription: dict[str, Any]
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
async def subscribe(body: SubscribeBody, push: PushDep, x_player_key: KeyHeader = None) -> Any:
    """Keep this browser's subscription: its player key's turns will be told to it."""
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
