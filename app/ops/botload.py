"""Bot load: how many bot moves are being chosen right now, per level.

The room service asks its ``chooser`` for every bot move; wrapping that one
callable counts the moves in flight and the moves made without touching the
service.  The strong bot searches in a pool of worker processes, so strong moves
beyond the number of workers in flight are waiting in its queue: that number
is the one to watch when strong tables pile up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove
from app.metrics import Metrics
from app.rooms.botrunner import Chooser

STRONG_WORKERS = 1
"""Processes the strong search runs in unless told (app/rooms/botrunner.py)."""


class BotLoadJson(TypedDict):
    """``BotLoad.snapshot``: in the admin's stats (GET /api/admin/stats)."""

    thinking: dict[str, int]
    thinking_total: int
    strong_queued: int
    moves: dict[str, int]


class BotLoad:
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.thinking: dict[str, int] = {}
        """Bot moves being chosen now, by level."""
        self.moves: dict[str, int] = {}
        """Bot moves chosen since start, by level."""
        self.strong_workers = STRONG_WORKERS
        """Set to the bot runner's number of workers once the service exists."""

    @property
    def strong_queued(self) -> int:
        return max(0, self.thinking.get("strong", 0) - self.strong_workers)

    def snapshot(self) -> BotLoadJson:
        return {
            "thinking": dict(self.thinking),
            "thinking_total": sum(self.thinking.values()),
            "strong_queued": self.strong_queued,
            "moves": dict(self.moves),
        }

    def wrap(self, chooser: Chooser) -> Chooser:
        """The same chooser, counted."""

        async def counted(
            info: InformationSet,
            legal: Sequence[LegalMove],
            level: str,
            seed: str | None = None,
        ) -> LegalMove:
            self._change(level, +1)
            try:
                move = await chooser(info, legal, level, seed)
            finally:
                self._change(level, -1)
            self.moves[level] = self.moves.get(level, 0) + 1
            self.metrics.bot_moves.labels(level).inc()
            return move

        return counted

    def _change(self, level: str, delta: int) -> None:
        self.thinking[level] = self.thinking.get(level, 0) + delta
        self.metrics.bots_thinking.labels(level).set(self.thinking[level])
        self.metrics.strong_queued.set(self.strong_queued)
