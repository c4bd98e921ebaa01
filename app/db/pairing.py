"""The quick-pairing queue in SQL (``app/pairing/queue.py`` decides; this reads and
writes ``pairing_tickets``).

Every write is one transaction on the repository's writer.  A table is claimed in
one: on PostgreSQL the queue's waiting rows are read ``FOR UPDATE SKIP LOCKED``, so
two processes claiming at once never take the same row (the second sees only what the
first left); on SQLite, where one connection writes at a time across processes, the
claim's UPDATE must find every chosen ticket still ``waiting`` or the whole
transaction rolls back.  Either way a ticket is claimed by one group once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from app.pairing.queue import (
    CLAIM_SECONDS,
    KEEP_MATCHED_SECONDS,
    STALE_SECONDS,
    Claimed,
    FormTable,
    Ticket,
)

from .models import PairingTicket, table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository

TICKETS = table_of(PairingTicket)
QUEUE_READ = 200
"""The oldest waiting tickets of a queue the matcher looks at in one claim."""
LOST_RACE = {"40P01", "40001"}
"""PostgreSQL's deadlock and serialization failures: two claims that tidied the same
rows at once; the one PostgreSQL rolled back forms no table this time."""


class _Lost(Exception):
    """Another process claimed a chosen ticket first: roll this claim back."""


class PairingRows:
    """The ``PairingStore`` of ``app/pairing/queue.py`` on the repository's database."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def enqueue(self, ticket: Ticket, stale_before_ms: int) -> bool:
        return await self.repo._run_write(_enqueue, ticket, stale_before_ms)

    @outages_as_unavailable
    async def read(self, ticket: str, identity: str, now_ms: int) -> Ticket | None:
        return await self.repo._run_write(_read, ticket, identity, now_ms)

    @outages_as_unavailable
    async def cancel(self, ticket: str, identity: str) -> Ticket | None:
        return await self.repo._run_write(_cancel, ticket, identity)

    @outages_as_unavailable
    async def claim(
        self, players: int, pace: str, now_ms: int, form: FormTable, group_id: str
    ) -> Claimed | None:
        try:
            return await self.repo._run_write(_claim, players, pace, now_ms, form, group_id)
        except _Lost:
            return None
        except DBAPIError as exc:
            if getattr(exc.orig, "sqlstate", None) in LOST_RACE:
                return None
            raise

    @outages_as_unavailable
    async def seat(
        self, group_id: str, seats: Sequence[tuple[str, str, int, str]], now_ms: int
    ) -> int:
        return await self.repo._run_write(_seat, group_id, list(seats), now_ms)

    @outages_as_unavailable
    async def release(self, group_id: str) -> None:
        await self.repo._run_write(_release, group_id)


def _ticket(row: Any) -> Ticket:
    return Ticket(
        ticket=row.ticket,
        identity=row.identity,
        name=row.name,
        players=int(row.players),
        pace=row.pace,
        bots_after=row.bots_after,
        rating=row.rating,
        status=row.status,
        created_ms=int(row.created_ms),
        seen_ms=int(row.seen_ms),
        player_hash=row.player_hash,
        group_id=row.group_id,
        room_id=row.room_id,
        seat=row.seat,
        token=row.token,
    )


def _enqueue(conn: Connection, t: Ticket, stale_before_ms: int) -> bool:
    old = conn.execute(select(TICKETS).where(TICKETS.c.identity == t.identity)).first()
    if old is not None:
        live = old.status == "forming" or (
            old.status == "waiting" and old.seen_ms >= stale_before_ms
        )
        if live:
            return False
        conn.execute(delete(TICKETS).where(TICKETS.c.ticket == old.ticket))
    conn.execute(
        insert(TICKETS).values(
            ticket=t.ticket,
            identity=t.identity,
            name=t.name,
            players=t.players,
            pace=t.pace,
            bots_after=t.bots_after,
            rating=t.rating,
            status="waiting",
            created_ms=t.created_ms,
            seen_ms=t.seen_ms,
            player_hash=t.player_hash,
        )
    )
    return True


def _read(conn: Connection, ticket: str, identity: str, now_ms: int) -> Ticket | None:
    mine = (TICKETS.c.ticket == ticket) & (TICKETS.c.identity == identity)
    conn.execute(update(TICKETS).where(mine, TICKETS.c.status == "waiting").values(seen_ms=now_ms))
    row = conn.execute(select(TICKETS).where(mine)).first()
    return None if row is None else _ticket(row)


def _cancel(conn: Connection, ticket: str, identity: str) -> Ticket | None:
    mine = (TICKETS.c.ticket == ticket) & (TICKETS.c.identity == identity)
    row = conn.execute(select(TICKETS).where(mine)).first()
    if row is None:
        return None
    conn.execute(delete(TICKETS).where(mine, TICKETS.c.status == "waiting"))
    return _ticket(row)


def _tidy(conn: Connection, now_ms: int) -> None:
    """Drop given-up and long-seated tickets; let lapsed claims wait again.  Its first
    statement writes, so on SQLite the claim holds the write lock from here on."""
    c = TICKETS.c
    conn.execute(
        update(TICKETS)
        .where(c.status == "forming", c.claim_until < now_ms)
        .values(status="waiting", group_id=None, claim_until=None, seen_ms=now_ms)
    )
    conn.execute(
        delete(TICKETS).where(c.status == "waiting", c.seen_ms < now_ms - STALE_SECONDS * 1000)
    )
    conn.execute(
        delete(TICKETS).where(
            c.status == "matched", c.matched_ms < now_ms - KEEP_MATCHED_SECONDS * 1000
        )
    )


def _claim(
    conn: Connection, players: int, pace: str, now_ms: int, form: FormTable, group_id: str
) -> Claimed | None:
    c = TICKETS.c
    _tidy(conn, now_ms)
    rows = conn.execute(
        select(TICKETS)
        .where(
            c.status == "waiting",
            c.players == players,
            c.pace == pace,
            c.seen_ms >= now_ms - STALE_SECONDS * 1000,
        )
        .order_by(c.created_ms, c.ticket)
        .limit(QUEUE_READ)
        .with_for_update(skip_locked=True)  # PostgreSQL; SQLite has one writer anyway
    ).all()
    by_id = {row.ticket: _ticket(row) for row in rows}
    table = form([t.waiting() for t in by_id.values()])
    if table is None:
        return None
    ids = [p.ticket for p in table.people]
    taken = conn.execute(
        update(TICKETS)
        .where(c.ticket.in_(ids), c.status == "waiting")
        .values(status="forming", group_id=group_id, claim_until=now_ms + CLAIM_SECONDS * 1000)
    )
    if taken.rowcount != len(ids):
        raise _Lost  # rolls the whole claim back
    return Claimed(group_id, tuple(by_id[i] for i in ids), table.bots)


def _seat(
    conn: Connection, group_id: str, seats: list[tuple[str, str, int, str]], now_ms: int
) -> int:
    c = TICKETS.c
    done = 0
    for ticket, room_id, seat, token in seats:
        res = conn.execute(
            update(TICKETS)
            .where(c.ticket == ticket, c.group_id == group_id, c.status == "forming")
            .values(
                status="matched",
                room_id=room_id,
                seat=seat,
                token=token,
                claim_until=None,
                matched_ms=now_ms,
            )
        )
        done += res.rowcount
    return done


def _release(conn: Connection, group_id: str) -> None:
    c = TICKETS.c
    conn.execute(
        update(TICKETS)
        .where(c.group_id == group_id, c.status == "forming")
        .values(status="waiting", group_id=None, claim_until=None)
    )
