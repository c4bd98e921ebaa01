"""Publish/subscribe between server processes: in memory (one process) or Redis.

A process that commits a change to a room publishes (room, seq); every other
process that holds the room catches up from the database and forwards the new
views to its own connections.  One process with SQLite needs no Redis: the
in-memory broker delivers nothing anywhere, because there is nowhere else.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Awaitable, Callable, Protocol

log = logging.getLogger("krypkasino.broker")

Handler = Callable[[str, int, str], Awaitable[None]]
"""(room_id, seq, kind) -> None, for changes made by other processes."""

CHANNEL = "krypkasino:rooms"


PRESENCE_FRESH = 30.0
"""Seconds a process's presence report counts; processes refresh theirs every 10 s."""


class Broker(Protocol):
    origin: str

    async def start(self, handler: Handler) -> None: ...

    async def publish(self, room_id: str, seq: int, kind: str = "seq") -> None: ...

    async def set_presence(self, room_id: str, counts: list[int]) -> None: ...

    async def remote_presence(self, room_id: str, players: int) -> list[int]: ...

    async def stop(self) -> None: ...


class MemoryBroker:
    """The single-process broker: there is no other process to tell."""

    def __init__(self) -> None:
        self.origin = uuid.uuid4().hex

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, room_id: str, seq: int, kind: str = "seq") -> None:
        return None

    async def set_presence(self, room_id: str, counts: list[int]) -> None:
        return None

    async def remote_presence(self, room_id: str, players: int) -> list[int]:
        return [0] * players

    async def stop(self) -> None:
        return None


class RedisBroker:
    """Redis pub/sub on one channel; messages from this process are ignored."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.origin = uuid.uuid4().hex
        self._redis = redis.from_url(url)
        self._task: asyncio.Task[None] | None = None

    async def start(self, handler: Handler) -> None:
        await self._redis.ping()
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen(pubsub, handler))

    async def _listen(self, pubsub, handler: Handler) -> None:  # type: ignore[no-untyped-def]
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                try:
                    data = json.loads(message["data"])
                    if data.get("origin") == self.origin:
                        continue
                    await handler(data["room"], int(data["seq"]), data.get("kind", "seq"))
                except Exception:  # one bad message must not stop the listener
                    log.exception("broker message failed")
        finally:
            await pubsub.aclose()

    async def publish(self, room_id: str, seq: int, kind: str = "seq") -> None:
        await self._redis.publish(CHANNEL, json.dumps(
            {"origin": self.origin, "room": room_id, "seq": seq, "kind": kind}))

    async def set_presence(self, room_id: str, counts: list[int]) -> None:
        """Record how many connections this process holds per seat of a room."""
        import time

        key = f"krypkasino:presence:{room_id}"
        await self._redis.hset(key, self.origin, json.dumps({"c": counts, "t": time.time()}))
        await self._redis.expire(key, 3600)

    async def remote_presence(self, room_id: str, players: int) -> list[int]:
        """Connections per seat held by the other live processes."""
        import time

        out = [0] * players
        now = time.time()
        entries = await self._redis.hgetall(f"krypkasino:presence:{room_id}")
        for origin, raw in entries.items():
            if origin.decode() == self.origin:
                continue
            data = json.loads(raw)
            if now - data["t"] > PRESENCE_FRESH:
                continue  # a process that died without saying so
            for i, n in enumerate(data["c"][:players]):
                out[i] += n
        return out

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        await self._redis.aclose()


def make_broker(redis_url: str | None) -> Broker:
    return RedisBroker(redis_url) if redis_url else MemoryBroker()
