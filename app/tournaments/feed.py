"""Live events for whoever watches them (issue 49): one reader per watched event in a
process, its page as everyone may see it pushed to every watcher when it changes.

The event is read from the database (every ``interval`` seconds while anyone here
watches it), so a change made by any process reaches the watchers of every process;
nothing is sent to a watcher that the event's page would not show a signed-out
reader (app/tournaments/page.py: a duplicate board stays sealed).  A watcher holds
only the latest page: one that reads slowly skips pages, it never queues them.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.core.errors import Unavailable

from .page import EventJson, page
from .store import Snapshot

log = logging.getLogger("krypkasino.tournaments")
INTERVAL_S = 1.0


@dataclass(slots=True)
class _Feed:
    watchers: set[asyncio.Queue[EventJson]] = field(default_factory=set)
    last: str | None = None
    task: asyncio.Task[None] | None = None


class EventFeeds:
    def __init__(
        self, read: Callable[[str], Awaitable[Snapshot | None]], interval: float = INTERVAL_S
    ) -> None:
        self.read = read
        self.interval = interval
        self.feeds: dict[str, _Feed] = {}

    def watch(self, tournament_id: str) -> asyncio.Queue[EventJson]:
        """A new watcher's queue: the current page first, then each change."""
        feed = self.feeds.setdefault(tournament_id, _Feed())
        queue: asyncio.Queue[EventJson] = asyncio.Queue(maxsize=1)
        feed.watchers.add(queue)
        if feed.task is None:
            feed.task = asyncio.create_task(self._run(tournament_id, feed))
        elif feed.last is not None:
            queue.put_nowait(json.loads(feed.last))
        return queue

    def leave(self, tournament_id: str, queue: asyncio.Queue[EventJson]) -> None:
        feed = self.feeds.get(tournament_id)
        if feed is None:
            return
        feed.watchers.discard(queue)
        if not feed.watchers:
            if feed.task is not None:
                feed.task.cancel()
            del self.feeds[tournament_id]

    @property
    def watched(self) -> int:
        return len(self.feeds)

    async def _run(self, tournament_id: str, feed: _Feed) -> None:
        while True:
            try:
                snap = await self.read(tournament_id)
            except Unavailable:
                snap = None  # the database is away: the watchers keep the last page
            else:
                if snap is not None:
                    self._publish(feed, page(snap, None))
            await asyncio.sleep(self.interval)

    @staticmethod
    def _publish(feed: _Feed, shown: EventJson) -> None:
        text = json.dumps(shown, sort_keys=True)
        if text == feed.last:
            return
        feed.last = text
        for queue in feed.watchers:
            if queue.full():
                queue.get_nowait()  # the watcher had not read the one before: the latest wins
            queue.put_nowait(json.loads(text))

    async def close(self) -> None:
        tasks = [f.task for f in self.feeds.values() if f.task is not None]
        self.feeds.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
