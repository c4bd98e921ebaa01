"""A dispatcher beside a test's room service: the outbox's subscribers a test names,
handed each stored domain event as the server would (app/outbox/dispatcher.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import func, select

from app.core.outbox import Handler, Subscriptions
from app.db.outbox import EVENTS
from app.outbox.dispatcher import Dispatcher, DispatchSettings
from app.rooms.memory import MemoryStore
from app.rooms.service import RoomService


@asynccontextmanager
async def dispatching(
    service: RoomService, store: Any, **subscribers: tuple[list[str], Handler]
) -> AsyncIterator[Dispatcher]:
    """Run a dispatcher for ``subscribers`` (name=(kinds, handler)) until the block ends."""
    subs = Subscriptions()
    for name, (kinds, handler) in subscribers.items():
        subs.subscribe(name, kinds, handler)
    dispatcher = Dispatcher(
        store, subs, "test", service.doorbell, DispatchSettings(poll_seconds=0.05)
    )
    dispatcher.start()
    try:
        yield dispatcher
    finally:
        await dispatcher.stop()


async def undone_events(store: Any, kind: str | None = None) -> int:
    """Stored events (of ``kind``) not yet handed to every subscriber: what a test waits
    to reach 0 (their due times passed and the dispatcher handled them)."""
    if isinstance(store, MemoryStore):
        rows = store._rows.values()
        return sum(1 for r in rows if not r.done and kind in (None, r.event.kind))
    query = select(func.count()).select_from(EVENTS).where(EVENTS.c.done.is_(False))
    if kind is not None:
        query = query.where(EVENTS.c.kind == kind)
    async with store.sessions() as s:
        return int((await s.execute(query)).scalar_one())
