"""Who runs a room's timers: exactly one server process at a time.

A bot's turn, the turn clock and a grace take-over are moves the server makes
by itself.  With several processes holding the same room, each would schedule
them; the room's seq check lets only one such move commit, but the others
would still think (a strong bot's half second of CPU), lose, and reload.  So a
process runs a room's timers only while it holds the room's *lease*: a row in
the database naming the owner and an expiry.  The owner renews its leases
every third of their length; a process that dies stops renewing, and once
the lease has run out the next process that needs the room's timers takes it
over.  The lease lives in the database rather than in Redis because the
database is what every move needs anyway: while Redis is away, timers go on.

A lease is an efficiency and a promise of one owner, not what keeps moves
correct: if two processes ever both believed they held one (clocks set far
apart, a renewal lost), the seq check still lets only one move through.
Processes' clocks should agree to within a second or two (NTP does).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from app.core.clock import now_ms
from app.core.errors import Unavailable

from .store import RoomStore

log = logging.getLogger("krypkasino.leases")


class Leases(Protocol):
    async def acquire(self, room_id: str) -> bool:
        """True when this process may run the room's timers now."""

    async def renew(self) -> None:
        """Extend every lease held (called every ``ttl / 3``)."""

    async def release(self, room_ids: list[str]) -> None:
        """Give up these rooms' leases (they left memory, or the process stops)."""

    def held(self) -> set[str]: ...


class LocalLeases:
    """One process alone (SQLite, no Redis): every lease is its own."""

    async def acquire(self, room_id: str) -> bool:
        return True

    async def renew(self) -> None:
        return None

    async def release(self, room_ids: list[str]) -> None:
        return None

    def held(self) -> set[str]:
        return set()


class StoreLeases:
    """Leases kept in the rooms table, cached so that the common case asks nothing.

    An owned lease with more than half its time left is answered from memory; a
    lease another process holds is not asked about again before it would
    expire.  So a busy room costs one query per renewal period, not one per move.
    """

    def __init__(
        self, store: RoomStore, owner: str, ttl: float, clock: Callable[[], int] = now_ms
    ) -> None:
        self.store = store
        self.owner = owner
        self.ttl_ms = int(ttl * 1000)
        self.clock = clock
        """Unix ms now (tests pass a clock they move by hand: leases are about time)."""
        self._held: dict[str, int] = {}
        """Rooms whose lease this process holds -> until (Unix ms)."""
        self._foreign: dict[str, int] = {}
        """Rooms another process holds -> until when not to ask again."""

    def held(self) -> set[str]:
        return set(self._held)

    async def acquire(self, room_id: str) -> bool:
        now = self.clock()
        until = self._held.get(room_id)
        if until is not None and until - now > self.ttl_ms // 2:
            return True
        if self._foreign.get(room_id, 0) > now:
            return False
        try:
            taken, held_until = await self.store.take_lease(
                room_id, self.owner, now, now + self.ttl_ms
            )
        except Unavailable:
            return until is not None and until > now  # still ours until it runs out
        if taken:
            if until is None:
                log.info("lease taken", extra={"room": room_id})
            self._held[room_id] = now + self.ttl_ms
            self._foreign.pop(room_id, None)
            return True
        self._held.pop(room_id, None)
        # Ask again when the other owner's lease would run out (at most a ttl away).
        self._foreign[room_id] = min(held_until or now, now + self.ttl_ms) + 1
        return False

    async def renew(self) -> None:
        if not self._held:
            return
        until = self.clock() + self.ttl_ms
        rooms = list(self._held)
        try:
            kept = await self.store.renew_leases(self.owner, rooms, until)
        except Unavailable:
            return  # the leases run out by themselves if this goes on
        for room_id in rooms:
            if room_id in kept:
                self._held[room_id] = until
            else:
                log.warning("lease lost to another process", extra={"room": room_id})
                self._held.pop(room_id, None)

    async def release(self, room_ids: list[str]) -> None:
        mine = [r for r in room_ids if self._held.pop(r, None) is not None]
        for r in room_ids:
            self._foreign.pop(r, None)
        if mine:
            try:
                await self.store.release_leases(self.owner, mine)
            except Unavailable:
                pass  # they expire by themselves
