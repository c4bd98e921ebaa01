"""What the coach stores and reads, as Protocols (app/db/analyses.py implements them).

An analysis row is keyed by (room, match, deal).  It is queued once (an insert
that does nothing when the row exists), claimed by one process at a time with a
lease (one conditional UPDATE: queued, or running under a lease that ran out),
and moves on by updates that hold only while the claimer still owns it, so that
across any number of processes each deal is computed once.  The plays rated so
far are kept with ``done``: a process that stops mid-analysis leaves them for
the next claimer, which goes on from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, TypedDict

from app.rooms.domain.record_types import StoredDeal

from .report import AnalysisJson, PlayJson

DealState = Literal["none", "live", "over"]
"""No such deal (or room), a deal in play, a finished deal."""

QUEUED = "queued"
RUNNING = "running"
DONE = "done"


@dataclass(frozen=True, slots=True)
class Key:
    room_id: str
    match_no: int
    deal_no: int


class PlaysSoFar(TypedDict):
    """An analysis under way, as stored: the plays rated so far, in record order."""

    plays: list[PlayJson]


StoredResult = AnalysisJson | PlaysSoFar
"""The ``result`` column: the whole analysis once done, else the plays so far."""


@dataclass(frozen=True, slots=True)
class Stored:
    """An analysis row as read."""

    key: Key
    status: str
    seed: str
    done: int
    total: int
    result: StoredResult | None
    """Done: the whole analysis; else ``{"plays": [...]}``, those rated so far."""


class AnalysisStore(Protocol):
    async def deal_state(self, key: Key) -> DealState:
        """Whether the deal exists and is over (a room purged counts as none)."""

    async def deal_record(self, key: Key) -> StoredDeal | None:
        """The stored finished deal; None while in play or for no such deal."""

    async def get(self, key: Key) -> Stored | None: ...

    async def enqueue(self, key: Key, seed: str, total: int, now_ms: int) -> bool:
        """Queue the analysis unless a row exists; True when this call made it."""

    async def queued_count(self) -> int:
        """Analyses queued or running (the queue's length, over every process)."""

    async def claim(self, owner: str, now_ms: int, until_ms: int) -> Stored | None:
        """Take the oldest analysis that is queued, or running under a lapsed lease."""

    async def progress(
        self, key: Key, owner: str, done: int, result: PlaysSoFar, until_ms: int
    ) -> bool:
        """Store the plays rated so far and extend the lease; False when it is no longer
        this owner's (another process took it over, or the room is gone)."""

    async def finish(self, key: Key, owner: str, result: AnalysisJson) -> bool:
        """Store the finished analysis; False when it is no longer this owner's."""

    async def release(self, owner: str) -> None:
        """Give up this owner's running analyses (shutdown), queued again for others."""
