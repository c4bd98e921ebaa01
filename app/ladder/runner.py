"""Playing ladder packs: once each across every process, never on the event loop.

``play_one`` takes over a pack whose player stopped (its lease ran out) or makes the
next one (``schedule.plan_pack`` on a fresh ``secrets`` seed, stored before a card is
played), plays it through ``run`` (a worker thread for ``krypkasino ladder run``, the
background workers of app/core/processes.py in the server), renewing its lease
meanwhile, and stores it with one transaction.

In the server, with LADDER_PACKS_PER_HOUR above 0, every process looks now and then
for the current schedule slot (``3600 / packs_per_hour`` seconds long); the slot's
pack is unique in storage, so one process of many plays it.

A pack whose table holds an outside bot is played in the server's rooms
(app/ladder/rooms.py), awaited on the event loop (the rooms play it; nothing here
computes).  Its tables are scheduled only while the bot has an event stream open:
an offline bot is skipped, and the pack is played by the others' tables
(docs/bots.md, "The bot ladder").  Without rooms (``krypkasino ladder run``) no
outside table is played.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.core.clock import now_ms
from app.core.errors import ServiceError, Unavailable
from app.core.loops import Sweeper
from app.engine.shuffle import new_seed

from .entrants import Entrant
from .play import PlayedDeal, play_pack
from .rooms import LadderRoomError, ServerRooms, outside_of
from .schedule import LadderConfig, PackPlan, Table, any_table, plan_pack
from .store import LadderStore

log = logging.getLogger("krypkasino.ladder")

Run = Callable[..., Awaitable[Any]]
"""Runs a function away from the event loop: ``asyncio.to_thread`` or
``BackgroundPool.run``."""


@dataclass(frozen=True, slots=True)
class RunnerSettings:
    worlds: int = 200
    """The strong level's sampled worlds per move (LADDER_STRONG_WORLDS)."""
    lease_s: float = 300.0
    """How long a pack is held without a renewal before another process may take it."""
    packs_per_hour: float = 0.0
    """Background packs (LADDER_PACKS_PER_HOUR); 0: none."""


class LadderRunner:
    def __init__(
        self,
        store: LadderStore,
        config: LadderConfig,
        run: Run,
        owner: str,
        settings: RunnerSettings = RunnerSettings(),
        clock: Callable[[], int] = now_ms,
        rooms: ServerRooms | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.config = config
        self.run = run
        self.owner = owner
        self.settings = settings
        self.clock = clock
        self.finished = 0
        """Packs this process stored."""
        self._slot = -1
        every = 3600.0 / settings.packs_per_hour if settings.packs_per_hour > 0 else 0.0
        self.slot_ms = int(every * 1000)
        self._loop = Sweeper(
            "ladder", self._round, min(60.0, max(every / 2, 1.0)), log, quiet=(Unavailable,)
        )

    def _until(self) -> int:
        return self.clock() + int(self.settings.lease_s * 1000)

    async def play_one(
        self, slot: int | None = None, config: LadderConfig | None = None
    ) -> int | None:
        """Finish an abandoned pack, or make and play the next one (of ``slot``, if
        given; of ``config``, if given, else the ladder's); the id of the pack stored,
        None if another process had it, it failed, or no table could be played."""
        claimed = await self.store.reclaim(self.owner, self.clock(), self._until())
        if claimed is not None and (self.rooms is not None or not outside_of(claimed.plan.table)):
            pack_id, plan = claimed.id, claimed.plan
        else:  # an outside bot's pack is left to the server, whose lease will run out
            resolved, allowed = await self._schedule(config or self.config)
            played = await self.store.tables_played(resolved.players)
            try:
                plan = plan_pack(resolved, played, new_seed(), allowed)
            except ValueError as exc:
                log.info("no ladder pack now: %s", exc)
                return None
            made = await self.store.claim(plan, self.owner, self.clock(), self._until(), slot)
            if made is None:
                return None
            pack_id = made
        deals = await self._played(pack_id, plan)
        if deals is None or not await self.store.finish(pack_id, self.owner, deals, self.clock()):
            log.warning("ladder pack %s was not stored (failed or taken over)", pack_id)
            return None
        self.finished += 1
        return pack_id

    async def _schedule(self, config: LadderConfig) -> tuple[LadderConfig, Callable[[Table], bool]]:
        """``config`` with each outside bot named by its account id, and which tables
        may be played now: a table with outside bots only in rooms, and while every
        one of them has a stream open."""
        outside = [e for e in config.entrants if e.kind == "outside"]
        if not outside:
            return config, any_table
        entrants, online = list(config.entrants), set()
        for e in outside:
            bot = await self.rooms.bots.outside_bot(e.name) if self.rooms is not None else None
            if bot is None:
                continue
            resolved = entrants[entrants.index(e)] = Entrant("outside", bot.account_id)
            if self.rooms is not None and await self.rooms.bots.online(bot.account_id):
                online.add(resolved.id)

        def allowed(table: Table) -> bool:
            out = outside_of(table)
            return all(e.id in online for e in out)

        return LadderConfig(config.players, config.rules, tuple(entrants)), allowed

    async def _played(self, pack_id: int, plan: PackPlan) -> list[PlayedDeal] | None:
        """The pack played (by the rooms for an outside bot's, else by ``run``), its
        lease renewed meanwhile; None if lost or failed."""
        if outside_of(plan.table) and self.rooms is not None:
            task = asyncio.ensure_future(self.rooms.play(plan))
        else:
            task = asyncio.ensure_future(self.run(play_pack, plan, self.settings.worlds))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=self.settings.lease_s / 3)
                if done:
                    deals: list[PlayedDeal] = task.result()
                    return deals
                if not await self.store.renew(pack_id, self.owner, self._until()):
                    return None
        except (LadderRoomError, ServiceError, Unavailable) as exc:
            log.warning("ladder pack %s failed: %s", pack_id, exc)
            return None
        finally:
            task.cancel()

    async def run_packs(
        self,
        count: int,
        progress: Callable[[int], None] | None = None,
        config: LadderConfig | None = None,
    ) -> int:
        """Play ``count`` packs one after another; how many were stored."""
        stored = 0
        for _ in range(count):
            pack_id = await self.play_one(config=config)
            if pack_id is not None:
                stored += 1
                if progress is not None:
                    progress(pack_id)
        return stored

    async def _round(self) -> None:
        slot = self.clock() // self.slot_ms
        if slot != self._slot:
            await self.play_one(slot)  # None too when another process has the slot
            self._slot = slot

    def start(self) -> None:
        """Background packs, if LADDER_PACKS_PER_HOUR asks for any."""
        if self.slot_ms > 0:
            self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()
