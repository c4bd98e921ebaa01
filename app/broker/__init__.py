"""Publish/subscribe between server processes: in memory (one process) or Redis.

A process that commits a change to a room publishes (room, seq); every other
process that holds the room catches up from the database and forwards the new
views to its own connections.  One process with SQLite needs no Redis: the
in-memory broker delivers nothing anywhere, because there is nowhere else.

Redis pub/sub delivers at most once and only while subscribed, so the Redis
broker is supervised: its subscriber reconnects forever with backoff, logs each
loss and return, and after a return tells the room service, which catches up
every room it holds from the database (messages sent meanwhile are gone).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Protocol

from .errors import BrokerUnavailable, outages, redis_calls
from .values import MemoryValues, RedisValues, SharedValues

__all__ = ["Broker", "BrokerUnavailable", "MemoryBroker", "RedisBroker", "make_broker"]

log = logging.getLogger("krypkasino.broker")

Handler = Callable[[str, int, str], Awaitable[None]]
"""(room_id, seq, kind) -> None, for changes made by other processes."""
OnReturn = Callable[[], Awaitable[None]]
"""Called after the subscriber came back from a loss: catch up from the database."""

CHANNEL = "krypkasino:rooms"

PRESENCE_FRESH = 30.0
"""Seconds a process's presence report counts unless told (the server passes
ServiceSettings.presence_fresh, six of its heartbeats: it refreshes its reports every
heartbeat)."""
RECONNECT_FIRST = 0.1
RECONNECT_MAX = 5.0
"""Backoff of the subscriber's reconnection attempts, doubling from first to max."""
SILENCE_PING = 5.0
"""Seconds without traffic after which the subscriber pings, to find a dead link."""
SILENCE_DEAD = 15.0
"""Seconds without any answer (not even a pong) after which the link counts as lost."""


class Broker(Protocol):
    origin: str

    async def start(self, handler: Handler, on_return: OnReturn | None = None) -> None: ...

    async def publish(self, room_id: str, seq: int, kind: str = "seq") -> None: ...

    async def set_presence(self, room_id: str, counts: list[int]) -> None: ...

    async def remote_presence(self, room_id: str, players: int) -> list[int]: ...

    async def remote_people(self, room_id: str) -> int:
        """Connections (seats and spectators) the other live processes hold in a room."""

    def status(self) -> dict[str, object]:
        """For readiness and metrics: {"ok": bool, ...}."""

    async def stop(self) -> None: ...

    values: SharedValues
    """Small values the processes share (a room's shared review: app/broker/values.py)."""

    async def live_origins(self, room_id: str) -> set[str]:
        """This process and every other live process that holds connections of the room
        (from the presence reports): who may still have a review participant."""


class MemoryBroker:
    """The single-process broker: there is no other process to tell."""

    shared = False
    """Whether other processes may hold the same rooms."""

    def __init__(self) -> None:
        self.origin = uuid.uuid4().hex
        self.values: SharedValues = MemoryValues()

    async def live_origins(self, room_id: str) -> set[str]:
        return {self.origin}

    async def start(self, handler: Handler, on_return: OnReturn | None = None) -> None:
        return None

    async def publish(self, room_id: str, seq: int, kind: str = "seq") -> None:
        return None

    async def set_presence(self, room_id: str, counts: list[int]) -> None:
        return None

    async def remote_presence(self, room_id: str, players: int) -> list[int]:
        return [0] * players

    async def remote_people(self, room_id: str) -> int:
        return 0

    def status(self) -> dict[str, object]:
        return {"ok": True, "kind": "memory"}

    async def stop(self) -> None:
        return None


class RedisBroker:
    """Redis pub/sub on one channel; messages from this process are ignored."""

    shared = True

    def __init__(self, url: str, presence_fresh: float = PRESENCE_FRESH) -> None:
        import redis.asyncio as redis

        self.presence_fresh = presence_fresh
        """Seconds another process's presence report counts (ServiceSettings.presence_fresh)."""

        self.origin = uuid.uuid4().hex
        self._redis = redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        self._task: asyncio.Task[None] | None = None
        self.subscribed = False
        """True while the subscriber is connected: messages from other processes arrive."""
        self.losses = 0
        """How many times the subscriber lost Redis (a metric)."""
        self._publish_failing = False
        self.values: SharedValues = RedisValues(self._redis)

    async def start(self, handler: Handler, on_return: OnReturn | None = None) -> None:
        """Start the subscriber; returns once it is subscribed, or after a few seconds
        without Redis (the server then starts not ready and keeps trying)."""
        connected = asyncio.Event()
        self._task = asyncio.create_task(self._supervise(handler, on_return, connected))
        try:
            await asyncio.wait_for(connected.wait(), 5)
        except TimeoutError:
            log.warning("starting without Redis; the subscriber keeps trying")

    async def _supervise(
        self, handler: Handler, on_return: OnReturn | None, connected: asyncio.Event
    ) -> None:
        delay = RECONNECT_FIRST
        lost_at: float | None = None
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.subscribe(CHANNEL)
                self.subscribed = True
                connected.set()
                delay = RECONNECT_FIRST
                if lost_at is not None:
                    log.warning(
                        "Redis is back; catching up every room",
                        extra={"after_s": round(time.monotonic() - lost_at, 1)},
                    )
                    lost_at = None
                    if on_return is not None:
                        await on_return()
                await self._listen(pubsub, handler)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a task boundary: the subscriber never dies
                if lost_at is None:
                    self.losses += 1
                    lost_at = time.monotonic()
                    log.warning(
                        "Redis subscriber lost; reconnecting",
                        extra={"error": f"{type(exc).__name__}: {exc}"},
                    )
            finally:
                self.subscribed = False
                try:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                except (ConnectionError, OSError, TimeoutError):
                    pass  # the link is gone anyway
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX)

    async def _listen(self, pubsub, handler: Handler) -> None:  # type: ignore[no-untyped-def]
        """Deliver messages until the link fails (raises) or falls silent."""
        heard = time.monotonic()
        pinged = False
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            now = time.monotonic()
            if message is None:
                if now - heard > SILENCE_DEAD:
                    raise ConnectionError(f"no answer from Redis for {SILENCE_DEAD:.0f} s")
                if now - heard > SILENCE_PING and not pinged:
                    await pubsub.ping()
                    pinged = True
                continue
            heard, pinged = now, False
            if message.get("type") != "message":
                continue  # a pong
            try:
                data = json.loads(message["data"])
                if data.get("origin") == self.origin:
                    continue
                await handler(data["room"], int(data["seq"]), data.get("kind", "seq"))
            except Exception:  # one bad message must not stop the listener
                log.exception("broker message failed")

    async def publish(self, room_id: str, seq: int, kind: str = "seq") -> None:
        """Tell the other processes; a failure is logged once per outage, not raised:
        they catch up from the database when Redis is back."""
        try:
            await self._redis.publish(
                CHANNEL,
                json.dumps({"origin": self.origin, "room": room_id, "seq": seq, "kind": kind}),
            )
        except outages() as exc:
            if not self._publish_failing:
                self._publish_failing = True
                log.warning("cannot publish to Redis", extra={"error": f"{type(exc).__name__}"})
            return
        if self._publish_failing:
            self._publish_failing = False
            log.warning("publishing to Redis again")

    @redis_calls
    async def set_presence(self, room_id: str, counts: list[int]) -> None:
        """Record how many connections this process holds per seat of a room, followed
        by its number of spectators."""
        key = f"krypkasino:presence:{room_id}"
        await self._redis.hset(key, self.origin, json.dumps({"c": counts, "t": time.time()}))
        await self._redis.expire(key, 3600)

    @redis_calls
    async def _remote_counts(self, room_id: str) -> list[list[int]]:
        now = time.time()
        entries = await self._redis.hgetall(f"krypkasino:presence:{room_id}")
        out = []
        for origin, raw in entries.items():
            if _text(origin) == self.origin:
                continue
            data = json.loads(raw)
            if now - data["t"] > self.presence_fresh:
                continue  # a process that died without saying so
            out.append([int(n) for n in data["c"]])
        return out

    async def remote_presence(self, room_id: str, players: int) -> list[int]:
        """Connections per seat held by the other live processes (BrokerUnavailable
        without Redis)."""
        out = [0] * players
        for counts in await self._remote_counts(room_id):
            for i, n in enumerate(counts[:players]):
                out[i] += n
        return out

    async def remote_people(self, room_id: str) -> int:
        """Every connection (seats and spectators) the other live processes hold."""
        return sum(sum(counts) for counts in await self._remote_counts(room_id))

    @redis_calls
    async def live_origins(self, room_id: str) -> set[str]:
        """This process and the others whose presence report for the room is fresh."""
        now = time.time()
        entries = await self._redis.hgetall(f"krypkasino:presence:{room_id}")
        live = {self.origin}
        for origin, raw in entries.items():
            if now - json.loads(raw)["t"] <= self.presence_fresh:
                live.add(_text(origin))
        return live

    def status(self) -> dict[str, object]:
        return {"ok": self.subscribed, "kind": "redis", "losses": self.losses}

    @redis_calls
    async def check(self) -> None:
        """A round trip to Redis (readiness): raises when it does not answer."""
        await self._redis.ping()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass  # what stop asked for
        await self._redis.aclose()


def _text(key: bytes | str) -> str:
    """A Redis hash key as text (the client answers bytes unless told to decode)."""
    return key.decode() if isinstance(key, bytes) else key


def make_broker(redis_url: str | None, presence_fresh: float = PRESENCE_FRESH) -> Broker:
    """Redis when the processes share rooms, else the single-process broker;
    ``presence_fresh`` comes from the service's settings (ServiceSettings.presence_fresh)."""
    return RedisBroker(redis_url, presence_fresh) if redis_url else MemoryBroker()
