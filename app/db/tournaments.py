"""The tournaments in SQL (app/tournaments/store.py's ``TournamentStore``, issue 49):
the writes are app/db/tournament_writes.py's, each one transaction through the
repository's writer (on SQLite the one writer thread); the reads are here."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import func, or_, select

from app.tournaments.progress import complete_boards
from app.tournaments.store import (
    Advance,
    EventLine,
    NewEvent,
    Seat,
    Snapshot,
    TableOfRoom,
    TableToMake,
)

from . import tournament_claims as claims
from . import tournament_writes as w
from .outage import outages_as_unavailable
from .repository import RoomRepository


class TournamentRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def create(self, event: NewEvent, open_max: int) -> None:
        await self.repo._run_write(w.create, event, open_max)

    @outages_as_unavailable
    async def snapshot(self, tournament_id: str) -> Snapshot | None:
        if len(tournament_id) > 32:
            return None
        async with self.repo.sessions() as s:
            conn = await s.connection()
            return await conn.run_sync(w.snapshot, tournament_id)

    @outages_as_unavailable
    async def register(
        self,
        tournament_id: str,
        account_id: str,
        username: str,
        now_ms: int,
        late: bool,
        entries_max: int,
    ) -> None:
        await self.repo._run_write(
            w.register, tournament_id, account_id, username, now_ms, late, entries_max
        )

    @outages_as_unavailable
    async def withdraw(self, tournament_id: str, account_id: str, now_ms: int) -> None:
        await self.repo._run_write(w.withdraw, tournament_id, account_id, now_ms)

    @outages_as_unavailable
    async def start(self, tournament_id: str, now_ms: int, seat: Seat) -> bool:
        return await self.repo._run_write(w.start, tournament_id, now_ms, seat)

    @outages_as_unavailable
    async def table_done(
        self,
        room_id: str,
        match_no: int,
        totals: Sequence[tuple[int, int, bool]],
        now_ms: int,
        advance: Advance,
    ) -> str | None:
        return await self.repo._run_write(w.table_done, room_id, match_no, totals, now_ms, advance)

    @outages_as_unavailable
    async def step(self, tournament_id: str, now_ms: int, advance: Advance) -> bool:
        return await self.repo._run_write(w.step, tournament_id, now_ms, advance)

    @outages_as_unavailable
    async def end_arena(self, tournament_id: str, now_ms: int) -> bool:
        return await self.repo._run_write(w.end_arena, tournament_id, now_ms)

    @outages_as_unavailable
    async def running(self, format: str) -> list[str]:
        async with self.repo.sessions() as s:
            rows = await s.execute(
                select(w.EVENTS.c.id).where(
                    w.EVENTS.c.state == "running", w.EVENTS.c.format == format
                )
            )
            return [str(r) for r in rows.scalars()]

    @outages_as_unavailable
    async def claim_tables(self, now_ms: int, until_ms: int, limit: int) -> list[TableToMake]:
        return await self.repo._run_write(claims.claim_tables, now_ms, until_ms, limit)

    @outages_as_unavailable
    async def set_room(self, tournament_id: str, stage: int, table_no: int, room_id: str) -> bool:
        return await self.repo._run_write(claims.set_room, tournament_id, stage, table_no, room_id)

    @outages_as_unavailable
    async def cancel(self, tournament_id: str, now_ms: int) -> bool:
        return await self.repo._run_write(w.cancel, tournament_id, now_ms)

    @outages_as_unavailable
    async def anything_to_do(self, now_ms: int) -> bool:
        """Whether any event runs, or registers with its start time come: one indexed
        look, so that a server with no tournament on does no more each round."""
        async with self.repo.sessions() as s:
            found = await s.execute(
                select(w.EVENTS.c.id)
                .where(
                    or_(
                        w.EVENTS.c.state == "running",
                        (w.EVENTS.c.state == "registering") & (w.EVENTS.c.starts_ms <= now_ms),
                    )
                )
                .limit(1)
            )
            return found.first() is not None

    @outages_as_unavailable
    async def due(self, now_ms: int) -> list[str]:
        async with self.repo.sessions() as s:
            rows = await s.execute(
                select(w.EVENTS.c.id).where(
                    w.EVENTS.c.state == "registering",
                    w.EVENTS.c.starts_ms.is_not(None),
                    w.EVENTS.c.starts_ms <= now_ms,
                )
            )
            return [str(r) for r in rows.scalars()]

    @outages_as_unavailable
    async def unmade(self, now_ms: int) -> int:
        """Tables a process could claim now (the loop's cheap look before a write)."""
        async with self.repo.sessions() as s:
            found = await s.execute(
                select(func.count())
                .select_from(w.TABLES.join(w.EVENTS, w.EVENTS.c.id == w.TABLES.c.tournament_id))
                .where(
                    w.EVENTS.c.state == "running",
                    w.TABLES.c.room_id.is_(None),
                    or_(w.TABLES.c.claim_until.is_(None), w.TABLES.c.claim_until < now_ms),
                )
            )
            return int(found.scalar() or 0)

    @outages_as_unavailable
    async def table_of_room(self, room_id: str) -> TableOfRoom | None:
        if len(room_id) > 32:
            return None
        async with self.repo.sessions() as s:
            row = (
                await s.execute(
                    select(w.TABLES, w.EVENTS.c.format)
                    .join(w.EVENTS, w.EVENTS.c.id == w.TABLES.c.tournament_id)
                    .where(w.TABLES.c.room_id == room_id)
                )
            ).first()
            if row is None:
                return None
            sealed = False
            if row.format == "duplicate":
                conn = await s.connection()
                snap = await conn.run_sync(w.snapshot, row.tournament_id)
                sealed = snap is not None and row.stage not in complete_boards(snap)
            return TableOfRoom(
                row.tournament_id,
                row.format,
                row.stage,
                row.table_no,
                json.loads(row.seats),
                sealed,
            )

    async def _lines(self, where: object, limit: int) -> list[EventLine]:
        async with self.repo.sessions() as s:
            rows = await s.execute(
                select(w.EVENTS)
                .where(where)  # type: ignore[arg-type]
                .order_by(w.EVENTS.c.created_ms.desc())
                .limit(limit)
            )
            return [
                EventLine(r.id, r.name, r.format, r.state, r.club_id, r.created_ms, r.finished_ms)
                for r in rows
            ]

    @outages_as_unavailable
    async def of_club(self, club_id: str, limit: int) -> list[EventLine]:
        return await self._lines(w.EVENTS.c.club_id == club_id, limit)

    @outages_as_unavailable
    async def of_player(self, username: str, limit: int) -> list[tuple[EventLine, str]]:
        """The events an entrant of this name (any case) entered, with their account id."""
        async with self.repo.sessions() as s:
            rows = await s.execute(
                select(w.EVENTS, w.ENTRIES.c.account_id)
                .join(w.ENTRIES, w.ENTRIES.c.tournament_id == w.EVENTS.c.id)
                .where(func.lower(w.ENTRIES.c.username) == username.lower())
                .order_by(w.EVENTS.c.created_ms.desc())
                .limit(limit)
            )
            return [
                (
                    EventLine(
                        r.id, r.name, r.format, r.state, r.club_id, r.created_ms, r.finished_ms
                    ),
                    str(r.account_id),
                )
                for r in rows
            ]
