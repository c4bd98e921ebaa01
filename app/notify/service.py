"""Web Push for players: their subscriptions, the server's VAPID keys, turn notices.

A browser subscribes with its player key (the one that holds its seats, "My games"),
so a notice goes to every browser of the person whose seat it is.  The rooms ask for
a notice through their ``TurnNotices`` Protocol (app/rooms/turn_notice.py) only when
no page of that person is open, and 24 h and 1 h before a correspondence deadline; this
decides whom to send to (not an owner who turned that event off, app/notify/settings.py)
and drops a subscription its push service has forgotten.  Storage is a Protocol here
(``PushStore``), implemented in app/db/push.py.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol, TypedDict

import httpx

from app.players.players import player_hash

from .settings import NoticeSettings
from .webpush import Outcome, Subscription, VapidKeys, send

log = logging.getLogger("krypkasino.notify")

LANGS = ("en", "sv", "nb", "es", "fr", "pt")
"""The client's languages: a notice is worded in the one its browser used."""
TURN_TTL = 3600
"""A live room's turn is worth telling for an hour; after that the push service may
drop the message rather than deliver it late."""
DEADLINE_TTL = 3600
"""A deadline warning is worth an hour too (the next one, or the deadline, follows)."""


class StoredSubscription(TypedDict):
    endpoint: str
    p256dh: str
    auth: str
    lang: str


class PushStore(Protocol):
    async def server_key(self, name: str, made: str, now_ms: int) -> str:
        """The value kept under ``name``; ``made`` is kept first if there is none (the
        first process to start wins; every other one reads the same)."""
        ...

    async def save_subscription(
        self, player_hash: str, sub: StoredSubscription, now_ms: int
    ) -> None: ...

    async def drop_subscription(self, endpoint: str, player_hash: str | None = None) -> bool: ...

    async def seat_subscriptions(self, room_id: str, seat: int) -> list[StoredSubscription]:
        """The subscriptions of the player key that holds this seat."""
        ...

    async def claim_notice(self, room_id: str, seq: int, seat: int, now_ms: int) -> bool:
        """True the first time this (room, seq, seat) is claimed, False after."""
        ...

    async def claim_deadline(
        self, room_id: str, seq: int, seat: int, hours: int, now_ms: int
    ) -> bool:
        """True the first time this warning (room, seq, seat, hours) is claimed."""
        ...

    async def seat_settings(self, room_id: str, seat: int) -> NoticeSettings:
        """What the seat's owner wants told (app/notify/settings.py)."""
        ...

    async def room_code(self, room_id: str) -> str | None: ...


class PushService:
    """The server's Web Push: keys, subscriptions, and the rooms' turn notices."""

    def __init__(
        self,
        store: PushStore,
        client: httpx.AsyncClient,
        *,
        subject: str,
        allow_local: bool = False,
        private_pem: str | None = None,
    ) -> None:
        self.store = store
        self.client = client
        self.subject = subject
        self.allow_local = allow_local
        self._pem = private_pem
        self._keys: VapidKeys | None = None
        self.sent = {o.value: 0 for o in Outcome}
        """Messages by outcome (the metrics read it)."""

    async def keys(self) -> VapidKeys:
        """The VAPID key pair: given by the settings, else made once and kept."""
        if self._keys is None:
            pem = self._pem or await self.store.server_key(
                "vapid", VapidKeys.generate().private_pem, _now_ms()
            )
            self._keys = VapidKeys(pem)
        return self._keys

    async def public_key(self) -> str:
        return (await self.keys()).public_key

    async def subscribe(self, key: str, data: object, lang: str) -> None:
        """Keep a browser's subscription for this player key (BadSubscription if it is
        not one the server will send to)."""
        sub = Subscription.parse(data, allow_local=self.allow_local)
        stored: StoredSubscription = {
            "endpoint": sub.endpoint,
            "p256dh": sub.p256dh,
            "auth": sub.auth,
            "lang": lang if lang in LANGS else "en",
        }
        await self.store.save_subscription(player_hash(key), stored, _now_ms())

    async def unsubscribe(self, key: str, endpoint: str) -> bool:
        return await self.store.drop_subscription(endpoint, player_hash(key))

    async def turn_started(self, room_id: str, seq: int, seat: int) -> None:
        """The rooms' TurnNotices: tell the seat's browsers, once per turn, unless
        their owner turned turn notices off."""
        subs = await self.store.seat_subscriptions(room_id, seat)
        if not subs or not (await self.store.seat_settings(room_id, seat)).turn:
            return
        if not await self.store.claim_notice(room_id, seq, seat, _now_ms()):
            return
        await self._send_all(subs, {"kind": "turn", "room": room_id}, room_id, TURN_TTL)

    async def deadline_near(self, room_id: str, seq: int, seat: int, hours: int) -> None:
        """The rooms' TurnNotices: ``hours`` left before the seat's correspondence
        deadline at ``seq``.  Told once per (room, seq, seat, hours) across processes,
        unless the seat's owner turned deadline warnings off."""
        subs = await self.store.seat_subscriptions(room_id, seat)
        if not subs or not (await self.store.seat_settings(room_id, seat)).deadline:
            return
        if not await self.store.claim_deadline(room_id, seq, seat, hours, _now_ms()):
            return
        code = await self.store.room_code(room_id)
        message = {"kind": "deadline", "room": room_id, "code": code or "", "hours": hours}
        await self._send_all(subs, message, room_id, DEADLINE_TTL)

    async def _send_all(
        self, subs: list[StoredSubscription], base: dict[str, object], room_id: str, ttl: int
    ) -> None:
        keys = await self.keys()
        for stored in subs:
            message = {**base, "url": f"/r/{room_id}", "lang": stored["lang"]}
            sub = Subscription(stored["endpoint"], stored["p256dh"], stored["auth"])
            outcome = await send(self.client, keys, self.subject, sub, message, ttl=ttl)
            self.sent[outcome.value] += 1
            if outcome is Outcome.GONE:
                await self.store.drop_subscription(stored["endpoint"])
                log.info("push subscription gone; dropped", extra={"room": room_id})
            elif outcome is Outcome.FAILED:
                log.info("push message not delivered", extra={"room": room_id})


def _now_ms() -> int:
    return int(time.time() * 1000)
