"""Small JSON values shared by the server processes, changed by compare-and-set.

A shared review of a deal (``app/review/review.py``) is state of the room that is
not part of its game: no move, no seq, nothing the database must keep.  It
lives here: in memory with one process, in Redis with several, next to the
presence reports.  A change is a read, a pure function of what was read, and a
write that happens only if nobody wrote in between (Redis ``WATCH``/``MULTI``);
otherwise the function runs again on the newer value.  So two processes
changing one review at once both take effect, one after the other, and every
value carries a version that only grows.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, Protocol

from .errors import redis_calls

Change = Callable[[Any], Any]
"""Old value (None when there is none) -> new value, or ``UNCHANGED``; may raise to
refuse, and then nothing is written."""

UNCHANGED = object()
ATTEMPTS = 20
TTL_SECONDS = 6 * 3600
"""A value nobody changed for this long is dropped (a review left behind by processes
that all went away)."""


class Contended(Exception):
    """Other writers kept changing the value; nothing was written."""


class SharedValues(Protocol):
    async def get(self, key: str) -> Any: ...

    async def update(self, key: str, change: Change) -> tuple[bool, Any]:
        """Apply ``change`` atomically; returns (written, the value now stored)."""


class MemoryValues:
    """One process: a dict, changed under a lock."""

    def __init__(self) -> None:
        self._values: dict[str, object] = {}
        """Whatever each key's changes made: this store never looks inside."""
        self._lock = asyncio.Lock()

    async def get(self, key: str) -> Any:
        return self._values.get(key)

    async def update(self, key: str, change: Change) -> tuple[bool, Any]:
        async with self._lock:
            new = change(self._values.get(key))
            if new is UNCHANGED:
                return False, self._values.get(key)
            self._values[key] = new
            return True, new


class RedisValues:
    """Several processes: one Redis string per key, written with WATCH/MULTI."""

    PREFIX = "krypkasino:value:"

    def __init__(self, redis: Any) -> None:
        self._redis = redis

    @redis_calls
    async def get(self, key: str) -> Any:
        raw = await self._redis.get(self.PREFIX + key)
        return json.loads(raw) if raw is not None else None

    @redis_calls
    async def update(self, key: str, change: Change) -> tuple[bool, Any]:
        from redis.exceptions import WatchError

        full = self.PREFIX + key
        for _ in range(ATTEMPTS):
            async with self._redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(full)
                    raw = await pipe.get(full)
                    old = json.loads(raw) if raw is not None else None
                    new = change(old)
                    if new is UNCHANGED:
                        await pipe.unwatch()
                        return False, old
                    pipe.multi()
                    pipe.set(full, json.dumps(new, separators=(",", ":")), ex=TTL_SECONDS)
                    await pipe.execute()
                    return True, new
                except WatchError:
                    continue
        raise Contended(key)
