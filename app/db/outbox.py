"""The outbox's rows (app/core/outbox.py): domain events written with the commit that
made them (``write_events``, inside the room's transaction), claimed by one process
at a time to be handed on, and marked as each subscriber handles them.

Claiming works as for ``room_deadlines`` (deadline_claims.py): one transaction reads
the due rows (``FOR UPDATE SKIP LOCKED`` on PostgreSQL) and takes each by a statement
that only succeeds while no live claim holds it.  A claim lasts a lease; a process
that dies holding it leaves the event to the next one once the lease ran out.  A
subscriber that fails puts the event back with a later ``claim_until`` (backing off).
An event is not claimed before its ``due_ms`` (a turn notice waits out its delay).

On SQLite these small writes are committed on the loop with the tick's moves
(``soon``, app/db/inline_sqlite.py) rather than on the writer thread: there they
would take SQLite's one write lock beside the loop's commits and send moves to the
thread (a test counts moves handed over: none).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement, delete, insert, select, update
from sqlalchemy.engine import Connection

from app.core.outbox import NewEvent, StoredEvent

from .base import table_of
from .outage import outages_as_unavailable
from .outbox_models import OutboxEventRow, OutboxHandledRow
from .store_base import StoreBase

EVENTS = table_of(OutboxEventRow)
HANDLED = table_of(OutboxHandledRow)


def write_events(conn: Connection, events: Sequence[NewEvent], now_ms: int) -> None:
    """Store ``events`` in the caller's transaction (the room's commit)."""
    if events:
        conn.execute(
            insert(EVENTS),
            [
                {
                    "room_id": e.room_id,
                    "kind": e.kind,
                    "body": e.body,
                    "created_ms": now_ms,
                    "due_ms": now_ms if e.due_ms is None else e.due_ms,
                    "done": False,
                    "tries": 0,
                }
                for e in events
            ],
        )


def _free(now_ms: int) -> ColumnElement[bool]:
    """Due, and held by no live claim (nor waiting out a failure's back-off)."""
    unclaimed = EVENTS.c.claim_until.is_(None) | (EVENTS.c.claim_until < now_ms)
    return (EVENTS.c.due_ms <= now_ms) & unclaimed


def _claim_sync(
    conn: Connection, owner: str, now_ms: int, until_ms: int, limit: int
) -> list[StoredEvent]:
    c = EVENTS.c
    cols = (c.id, c.room_id, c.kind, c.body, c.created_ms, c.tries)
    query = (
        select(*cols)
        .where(EVENTS.c.done.is_(False), _free(now_ms))
        .order_by(EVENTS.c.id)
        .limit(limit)
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    claimed: list[StoredEvent] = []
    for event_id, room_id, kind, body, created_ms, tries in conn.execute(query).all():
        taken = conn.execute(
            update(EVENTS)
            .where(EVENTS.c.id == event_id, EVENTS.c.done.is_(False), _free(now_ms))
            .values(claim_owner=owner, claim_until=until_ms)
        )
        if taken.rowcount == 1:
            claimed.append(
                StoredEvent(int(event_id), room_id, kind, dict(body), int(created_ms), int(tries))
            )
    return claimed


def _handled_sync(conn: Connection, event_id: int, subscriber: str, now_ms: int) -> None:
    """The subscriber's row, once: a second hand-over (a dead process's event) that
    finds it already there leaves it."""
    exists = conn.execute(
        select(HANDLED.c.event_id).where(
            HANDLED.c.event_id == event_id, HANDLED.c.subscriber == subscriber
        )
    ).first()
    if exists is None:
        conn.execute(insert(HANDLED).values(event_id=event_id, subscriber=subscriber, at_ms=now_ms))


def _finish_sync(conn: Connection, event_id: int, owner: str) -> None:
    conn.execute(
        update(EVENTS)
        .where(EVENTS.c.id == event_id, EVENTS.c.claim_owner == owner)
        .values(done=True, claim_owner=None, claim_until=None)
    )


def _release_sync(conn: Connection, event_id: int, owner: str, retry_ms: int) -> None:
    conn.execute(
        update(EVENTS)
        .where(EVENTS.c.id == event_id, EVENTS.c.claim_owner == owner)
        .values(claim_owner=None, claim_until=retry_ms, tries=EVENTS.c.tries + 1)
    )


def _purge_sync(conn: Connection, before_ms: int) -> int:
    done = select(EVENTS.c.id).where(EVENTS.c.done.is_(True), EVENTS.c.created_ms < before_ms)
    conn.execute(delete(HANDLED).where(HANDLED.c.event_id.in_(done)))
    return int(conn.execute(delete(EVENTS).where(EVENTS.c.id.in_(done))).rowcount or 0)


class OutboxRows(StoreBase):
    """The outbox half of the room store (``OutboxStore`` in app/core/outbox.py's terms:
    the dispatcher's view of storage)."""

    @outages_as_unavailable
    async def add_events(self, events: Sequence[NewEvent], now_ms: int) -> None:
        """Store events that no room commit carries (a turn notice when a player's last
        page closes): one small transaction, on SQLite with the loop's tick."""
        if events:
            await self._run_write(write_events, list(events), now_ms, soon=True)

    @outages_as_unavailable
    async def claim_events(
        self, owner: str, now_ms: int, until_ms: int, limit: int
    ) -> list[StoredEvent]:
        """Up to ``limit`` events nobody has finished nor holds, oldest first, now held
        by ``owner`` until ``until_ms``."""
        return await self._run_write(_claim_sync, owner, now_ms, until_ms, limit, soon=True)

    @outages_as_unavailable
    async def handled_by(self, event_id: int) -> set[str]:
        async with self.sessions() as s:
            rows = await s.execute(
                select(HANDLED.c.subscriber).where(HANDLED.c.event_id == event_id)
            )
            return {str(name) for (name,) in rows.all()}

    @outages_as_unavailable
    async def mark_handled(self, event_id: int, subscriber: str, now_ms: int) -> None:
        await self._run_write(_handled_sync, event_id, subscriber, now_ms, soon=True)

    @outages_as_unavailable
    async def finish_event(self, event_id: int, owner: str) -> None:
        await self._run_write(_finish_sync, event_id, owner, soon=True)

    @outages_as_unavailable
    async def release_event(self, event_id: int, owner: str, retry_ms: int) -> None:
        await self._run_write(_release_sync, event_id, owner, retry_ms, soon=True)

    @outages_as_unavailable
    async def purge_events(self, before_ms: int) -> int:
        """Drop finished events made before ``before_ms``; returns how many."""
        return await self._run_write(_purge_sync, before_ms)
