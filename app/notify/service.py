"""Web Push for players: their subscriptions, the server's VAPID keys, turn notices.

A browser subscribes with its player key (the one that holds its seats, "My games"),
so a notice goes to every browser of the person whose seat it is.  A notice is asked
for by the rooms' domain events (app/notify/turns.py subscribes to them through the
outbox): a turn whose person has no page open, and 24 h and 1 h before a
correspondence deadline; this decides whom to send to (not an owner who turned that
event off, app/notify/settings.py) and drops a subscription its push service has
forgotten.  Storage is a Protocol here
(``PushStore``), implemented in app/db/push.py.

Messages go out through ``egress.PushClient``, which connects to public addresses only
(issue 46); a subscription whose endpoint leads anywhere else is dropped.  A player key
keeps at most ``PushLimits.per_key`` subscriptions and an account (every key linked to
it) at most ``per_account``: a new one replaces the oldest beyond that, so a browser
that subscribes again never finds itself locked out by endpoints it lost track of
(cleared site data, a reinstalled browser), and no one can make a turn cost more than
that many outgoing requests.  A notice goes to the newest ``per_notice`` of a seat's
subscriptions whatever is stored (a key linked to an account after subscribing).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict
from urllib.parse import urlsplit

import httpx

from app.core.clock import now_ms
from app.limits.rate import KeyedRateLimit
from app.players.players import player_hash

from .egress import PushClient, Resolver
from .settings import NoticeSettings
from .webpush import BadSubscription, Outcome, Subscription, VapidKeys, check_endpoint, send

log = logging.getLogger("krypkasino.notify")

LANGS = ("en", "sv", "nb", "es", "fr", "pt")
"""The client's languages: a notice is worded in the one its browser used."""
TURN_TTL = 3600
"""A live room's turn is worth telling for an hour; after that the push service may
drop the message rather than deliver it late."""
DEADLINE_TTL = 3600
"""A deadline warning is worth an hour too (the next one, or the deadline, follows)."""


@dataclass(frozen=True, slots=True)
class PushLimits:
    """How many subscriptions are kept and how fast they may be made (PUSH_SUBSCRIPTIONS_
    PER_KEY, PUSH_SUBSCRIPTIONS_PER_ACCOUNT, PUSH_SUBSCRIBE_PER_MINUTE; 0: no limit)."""

    per_key: int = 10
    per_account: int = 10
    subscribe_per_minute: float = 10.0

    @classmethod
    def from_settings(cls, settings: Any) -> PushLimits:
        """From the server's settings (read by attribute, as app/limits does)."""
        return cls(
            per_key=settings.push_subscriptions_per_key,
            per_account=settings.push_subscriptions_per_account,
            subscribe_per_minute=settings.push_subscribe_per_minute,
        )

    @property
    def per_notice(self) -> int | None:
        """The most subscriptions one notice goes to (None: all of them)."""
        caps = [n for n in (self.per_key, self.per_account) if n > 0]
        return max(caps) if len(caps) == 2 else None


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
        self,
        player_hash: str,
        sub: StoredSubscription,
        now_ms: int,
        *,
        per_key: int = 0,
        per_account: int = 0,
    ) -> int:
        """Keep ``sub`` under the key, then drop the oldest of the key's beyond
        ``per_key`` and of its account's beyond ``per_account`` (0: no cap); how many
        were dropped."""
        ...

    async def drop_subscription(self, endpoint: str, player_hash: str | None = None) -> bool: ...

    async def seat_subscriptions(
        self, room_id: str, seat: int, limit: int | None = None
    ) -> list[StoredSubscription]:
        """The subscriptions of the player key that holds this seat (and of the
        account holding it), oldest first: the newest ``limit`` of them if given."""
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
    """The server's Web Push: keys, subscriptions, and the notices of turns and
    deadlines (asked for by app/notify/turns.py)."""

    def __init__(
        self,
        store: PushStore,
        client: httpx.AsyncClient,
        *,
        subject: str,
        allow_local: bool = False,
        private_pem: str | None = None,
        limits: PushLimits | None = None,
        resolver: Resolver | None = None,
    ) -> None:
        self.store = store
        # only a PushClient is sent through (it connects to public addresses only):
        # any other client given stands for its timeout, and is never used
        self.client = (
            client
            if isinstance(client, PushClient)
            else PushClient(allow_local=allow_local, resolver=resolver, timeout=client.timeout)
        )
        self.subject = subject
        self.allow_local = allow_local
        self._pem = private_pem
        self._keys: VapidKeys | None = None
        self.limits = PushLimits()
        self.subscribe_limit = KeyedRateLimit(self.limits.subscribe_per_minute)
        """New subscriptions per client address (the API asks it)."""
        self.configure(limits or self.limits)
        self.sent = {o.value: 0 for o in Outcome}
        """Messages by outcome (the metrics read it)."""

    def configure(self, limits: PushLimits) -> None:
        """Use these limits from now on (the rate limit's buckets start afresh only
        when its rate changes)."""
        if limits.subscribe_per_minute != self.limits.subscribe_per_minute:
            self.subscribe_limit = KeyedRateLimit(limits.subscribe_per_minute)
        self.limits = limits

    async def keys(self) -> VapidKeys:
        """The VAPID key pair: given by the settings, else made once and kept."""
        if self._keys is None:
            pem = self._pem or await self.store.server_key(
                "vapid", VapidKeys.generate().private_pem, now_ms()
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
        await self.store.save_subscription(
            player_hash(key),
            stored,
            now_ms(),
            per_key=self.limits.per_key,
            per_account=self.limits.per_account,
        )

    async def unsubscribe(self, key: str, endpoint: str) -> bool:
        return await self.store.drop_subscription(endpoint, player_hash(key))

    async def turn_started(
        self,
        room_id: str,
        seq: int,
        seat: int,
        still: Callable[[], Awaitable[bool]] | None = None,
    ) -> None:
        """Tell the seat's browsers of the turn that began at ``seq``, once per turn,
        unless their owner turned turn notices off or ``still`` answers False (the
        turn moved on, or a page of theirs is open: asked only of a seat with
        subscriptions, and before the turn is marked told)."""
        subs = await self.store.seat_subscriptions(room_id, seat, self.limits.per_notice)
        if not subs or not (await self.store.seat_settings(room_id, seat)).turn:
            return
        if still is not None and not await still():
            return
        if not await self.store.claim_notice(room_id, seq, seat, now_ms()):
            return
        await self._send_all(subs, {"kind": "turn", "room": room_id}, room_id, TURN_TTL)

    async def deadline_near(self, room_id: str, seq: int, seat: int, hours: int) -> None:
        """``hours`` left before the seat's correspondence
        deadline at ``seq``.  Told once per (room, seq, seat, hours) across processes,
        unless the seat's owner turned deadline warnings off."""
        subs = await self.store.seat_subscriptions(room_id, seat, self.limits.per_notice)
        if not subs or not (await self.store.seat_settings(room_id, seat)).deadline:
            return
        if not await self.store.claim_deadline(room_id, seq, seat, hours, now_ms()):
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
            outcome = await self._send(keys, sub, message, ttl)
            self.sent[outcome.value] += 1
            if outcome is Outcome.GONE:
                await self.store.drop_subscription(stored["endpoint"])
                log.info("push subscription gone; dropped", extra={"room": room_id})
            elif outcome is Outcome.REFUSED:
                await self.store.drop_subscription(stored["endpoint"])
                log.warning(
                    "push endpoint not at a public address; subscription dropped",
                    extra={"room": room_id, "host": _host(stored["endpoint"])},
                )
            elif outcome is Outcome.FAILED:
                log.info("push message not delivered", extra={"room": room_id})

    async def _send(
        self, keys: VapidKeys, sub: Subscription, message: dict[str, object], ttl: int
    ) -> Outcome:
        try:  # kept before the checks of issue 46 were made, perhaps
            check_endpoint(sub.endpoint, allow_local=self.allow_local)
        except BadSubscription:
            return Outcome.REFUSED
        return await send(self.client, keys, self.subject, sub, dict(message), ttl=ttl)


def _host(endpoint: str) -> str:
    """The endpoint's host, for the log (at most a host name's length)."""
    try:
        return (urlsplit(endpoint).hostname or "?")[:253]
    except ValueError:
        return "?"
