"""The coach as the API and the rooms see it: one analysis per finished deal, asked
for over HTTP or queued when the deal ends.

An analysis is only ever made of a finished deal: the deal's state is read first,
and a deal in play is refused (``deal_not_over``) before anything else is looked
at, so nothing about it leaks.  The queue is bounded (``queue``): past it a deal's
end queues nothing and a request is answered ``busy``, to be asked again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypedDict

from app.core.clock import now_ms
from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable

from .store import DONE, QUEUED, AnalysisStore, Key, StoredResult

log = logging.getLogger("krypkasino.coach")

SEED = "1"
"""The sample seed of every analysis the server makes (stored with it)."""


class Progress(TypedDict):
    """202: the analysis is being made."""

    status: str
    done: int
    total: int


class Coach:
    def __init__(
        self,
        store: AnalysisStore,
        poke: Callable[[], None],
        queue: int = 200,
        auto: bool = True,
        seed: str = SEED,
    ) -> None:
        self.store = store
        self.poke = poke
        self.queue = queue
        self.auto = auto
        self.seed = seed

    async def analysis(self, room_id: str, match_no: int, deal_no: int) -> StoredResult | Progress:
        """The finished analysis (``status`` done), or its progress (queued, running),
        queueing it if nobody had.  Raises ``not_found`` for no such deal,
        ``deal_not_over`` for a deal in play, ``busy`` when the queue is full."""
        key = Key(room_id, match_no, deal_no)
        try:
            state = await self.store.deal_state(key)
            if state == "none":
                raise ServiceError(ErrorCode.NOT_FOUND, "no such deal")
            if state == "live":
                raise ServiceError(ErrorCode.DEAL_NOT_OVER, "the deal is still being played")
            row = await self.store.get(key)
            if row is None:
                row_total = await self._enqueue(key, bounded=True)
                return Progress(status=QUEUED, done=0, total=row_total)
        except Unavailable as exc:
            raise unavailable() from exc
        if row.status == DONE and row.result is not None:
            return row.result
        return Progress(status=row.status, done=row.done, total=row.total)

    async def _enqueue(self, key: Key, bounded: bool) -> int:
        """Queue the analysis of a finished deal; returns its number of plays."""
        record = await self.store.deal_record(key)
        if record is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no such deal")
        total = len(record["moves"])
        if bounded and await self.store.queued_count() >= self.queue:
            raise ServiceError(ErrorCode.BUSY, "the coach is busy; ask again in a while")
        await self.store.enqueue(key, self.seed, total, now_ms())
        self.poke()
        return total

    async def deal_ended(self, room_id: str, match_no: int, deal_no: int) -> None:
        """A deal ended (the outbox's ``deal_ended``, after its commit): queue its
        analysis.  Raises while the database is away, so that the outbox hands the
        event over again later; queueing twice queues once (the row's key)."""
        if not self.auto:
            return
        if await self.store.queued_count() >= self.queue:
            return  # full: it is queued when somebody asks for it
        try:
            await self._enqueue(Key(room_id, match_no, deal_no), bounded=False)
        except ServiceError as exc:
            if exc.code != ErrorCode.NOT_FOUND:
                raise
            # purged meanwhile: nothing left to analyse
