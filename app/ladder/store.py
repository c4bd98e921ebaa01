"""What the ladder asks of storage (app/db/ladder.py implements it on SQLite and
PostgreSQL).

A pack is made before it is played (``claim``: its seed and table stored, with a
lease naming the process that plays it) and finished in one transaction
(``finish``: its results and deals, only while that process still holds the lease),
so that it is stored once however many processes run the ladder: a background
pack's schedule slot is unique (one process makes it), and a pack whose player died
is taken over once its lease ran out (``reclaim``) and played again from its seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.engine.view_types import ScoreJson
from app.rooms.domain.record_types import RecordMove

from .play import PlayedDeal
from .published import PackJson
from .schedule import PackPlan


@dataclass(frozen=True, slots=True)
class Claimed:
    """A pack this process now holds the lease of."""

    id: int
    plan: PackPlan


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """A deal of a finished pack as stored: what ``records.deal_record`` needs."""

    index: int
    moves: list[RecordMove]
    scores: list[ScoreJson]


class LadderStore(Protocol):
    async def tables_played(self, players: int) -> dict[tuple[str, ...], int]:
        """Packs made (finished or under way) per table of ``players``, by the table's
        entrant ids."""

    async def claim(
        self, plan: PackPlan, owner: str, now_ms: int, until_ms: int, slot: int | None
    ) -> int | None:
        """Store the pack before it is played, leased to ``owner``; its id, or None
        when another process made the pack of ``slot`` already."""

    async def reclaim(self, owner: str, now_ms: int, until_ms: int) -> Claimed | None:
        """Take over the oldest unfinished pack whose lease ran out, if any."""

    async def renew(self, pack_id: int, owner: str, until_ms: int) -> bool:
        """Extend ``owner``'s lease; False if it lost it."""

    async def finish(
        self, pack_id: int, owner: str, deals: Sequence[PlayedDeal], now_ms: int
    ) -> bool:
        """Store every result and deal and mark the pack finished, in one transaction,
        only while ``owner`` holds it; False (nothing stored) otherwise."""

    async def stamp(self) -> tuple[int, int]:
        """(finished packs, the latest finishing time): changes whenever one finishes."""

    async def finished(self, players: int) -> list[PackJson]:
        """Every finished pack of ``players``, oldest first."""

    async def packs(self, after: int, limit: int) -> list[PackJson]:
        """Up to ``limit`` finished packs with ids above ``after``, by id."""

    async def pack(self, pack_id: int) -> tuple[PackJson, list[StoredDeal]] | None:
        """A finished pack and its deals; None for no such finished pack."""
