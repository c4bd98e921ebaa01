"""The ladder as the API reads it: the standings (computed from the stored results,
again only when a pack finished since), the published packs, one pack's deals.

Nothing unfinished is ever served: the store reads finished packs only.
"""

from __future__ import annotations

import asyncio
import logging

from app.core.errors import ErrorCode, ServiceError

from .published import LadderJson, PackDealsJson, PackJson
from .records import deal_record, plan_from
from .runner import LadderRunner
from .schedule import LadderConfig
from .standings import standings
from .store import LadderStore

log = logging.getLogger("krypkasino.ladder")
MAX_PAGE = 100
"""Packs one GET /api/ladder/packs answers at most."""


class Ladder:
    def __init__(
        self, store: LadderStore, config: LadderConfig, runner: LadderRunner | None = None
    ) -> None:
        self.store = store
        self.config = config
        self.runner = runner
        self._cached: tuple[tuple[int, int], LadderJson] | None = None
        self._job: asyncio.Task[int] | None = None
        self.computed = 0
        """Times the standings were computed (tests: a read that changed nothing is
        served from the cache)."""

    async def standings(self) -> LadderJson:
        """The standings over the finished packs of this ladder's table size and rules."""
        stamp = await self.store.stamp()
        if self._cached is not None and self._cached[0] == stamp:
            return self._cached[1]
        rules = self.config.rules.to_dict()
        packs = [p for p in await self.store.finished(self.config.players) if p["rules"] == rules]
        answer: LadderJson = {
            "players": self.config.players,
            "rules": rules,
            "packs": len(packs),
            "standings": standings(packs),
            "updated_ms": max((p["finished_ms"] for p in packs), default=None),
        }
        self.computed += 1
        self._cached = (stamp, answer)
        return answer

    async def packs(self, after: int, limit: int) -> list[PackJson]:
        """Finished packs with ids above ``after``, by id, at most ``limit`` (capped)."""
        return await self.store.packs(max(0, after), max(1, min(limit, MAX_PAGE)))

    async def pack(self, pack_id: int) -> PackDealsJson:
        """A finished pack with each deal's record; ``not_found`` for any other id."""
        found = await self.store.pack(pack_id)
        if found is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no finished ladder pack of that id")
        pack, deals = found
        plan = plan_from(pack["seed"], pack["players"], pack["rules"], pack["entrants"])
        totals: dict[int, list[int]] = {d.index: [0] * plan.players for d in deals}
        for r in pack["results"]:
            totals[r["deal"]][r["seat"]] = r["score"]
        records = [
            deal_record(pack_id, plan, d.index, d.moves, d.scores, totals[d.index]) for d in deals
        ]
        return {**pack, "deals": records}

    def run_soon(self, packs: int, config: LadderConfig | None = None) -> bool:
        """Play ``packs`` packs in the background now (``POST /api/ladder/run``: the
        server plays an outside bot's packs, its rooms being here); False while a run
        asked so is still playing."""
        if self.runner is None or (self._job is not None and not self._job.done()):
            return False
        self._job = asyncio.create_task(self.runner.run_packs(packs, config=config))
        self._job.add_done_callback(_logged)
        return True

    def start(self) -> None:
        if self.runner is not None:
            self.runner.start()

    async def stop(self) -> None:
        if self._job is not None:
            self._job.cancel()
        if self.runner is not None:
            await self.runner.stop()


def _logged(job: asyncio.Task[int]) -> None:
    if not job.cancelled() and job.exception() is not None:
        log.error("the ladder's run failed", exc_info=job.exception())
    elif not job.cancelled():
        log.info("the ladder's run stored %s packs", job.result())
