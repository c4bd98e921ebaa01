"""A dispatcher beside a test's room service: the outbox's subscribers a test names,
handed each stored domain event as the server would (app/outbox/dispatcher.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from app.core.outbox import Handler, Subscriptions
from app.outbox.dispatcher import Dispatcher, DispatchSettings
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
