"""Prometheus metrics, one registry per app so tests can run several apps.

Besides the game's own series the registry carries prometheus_client's
standard process (memory, CPU, file descriptors), garbage collector and
platform collectors, so one scrape of ``/metrics`` describes the process.
Counters are exposed with the ``_total`` suffix: ``krypkasino_moves_total``'s
rate is moves per second.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from app.bots import LEVELS

if TYPE_CHECKING:
    from app.db.inline_sqlite import LoopWrites


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self.rooms = Gauge(
            "krypkasino_rooms",
            "Rooms held in this process's memory, by status",
            ["status"],
            registry=self.registry,
        )
        self.connections = Gauge(
            "krypkasino_connections", "Open WebSocket connections", registry=self.registry
        )
        self.move_times = MoveTimes()
        self.registry.register(self.move_times)
        self.errors = Counter(
            "krypkasino_errors", "Refused messages and requests", ["code"], registry=self.registry
        )
        self.rate_limited = Counter(
            "krypkasino_rate_limited",
            "Messages and requests refused by a rate limit, by what "
            "was limited (ws_message, admin_token, room_create, ...)",
            ["kind"],
            registry=self.registry,
        )
        self.bots_thinking = Gauge(
            "krypkasino_bots_thinking",
            "Bot moves being chosen right now, by bot level",
            ["level"],
            registry=self.registry,
        )
        self.strong_queued = Gauge(
            "krypkasino_strong_bot_queued",
            "Strong-bot moves waiting for the search process (one searches at a time)",
            registry=self.registry,
        )
        self.bot_moves = Counter(
            "krypkasino_bot_moves",
            "Bot moves chosen, by bot level",
            ["level"],
            registry=self.registry,
        )
        self.purged = Counter(
            "krypkasino_rooms_purged",
            "Finished rooms this process removed (RETENTION_DAYS)",
            registry=self.registry,
        )
        for level in LEVELS:  # present from the first scrape on
            self.bots_thinking.labels(level).set(0)
            self.bot_moves.labels(level)

    def observe_move(self, seconds: float) -> None:
        self.move_times.observe(seconds)

    def refused(self, kind: str) -> None:
        """A rate limit refused something; ``kind`` says which limit (``ws_message``,
        ``room_create``, ...): one short, fixed word per limit, never user input."""
        self.rate_limited.labels(kind).inc()


MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Upper bounds (seconds) of ``krypkasino_move_seconds``'s buckets."""


class MoveTimes:
    """``krypkasino_moves_total`` and the ``krypkasino_move_seconds`` histogram, kept as
    plain numbers and turned into metrics when Prometheus scrapes.

    Every committed move lands here.  prometheus_client's Counter and Histogram take
    a lock for each of the three numbers a move changes; the moves are all counted
    on the event loop's thread, where nothing else can interleave, so plain
    integers do (a scrape reads them on the same thread)."""

    def __init__(self) -> None:
        self.count = 0
        self.total_seconds = 0.0
        self.buckets = [0] * (len(MOVE_BUCKETS) + 1)
        """Moves per bucket, not cumulative; the last one is over every bound."""

    def observe(self, seconds: float) -> None:
        self.count += 1
        self.total_seconds += seconds
        self.buckets[bisect_left(MOVE_BUCKETS, seconds)] += 1

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        yield CounterMetricFamily(
            "krypkasino_moves", "Moves committed by this process", value=self.count
        )
        cumulative: list[tuple[str, float]] = []
        running = 0
        for bound, count in zip([*map(str, MOVE_BUCKETS), "+Inf"], self.buckets, strict=True):
            running += count
            cumulative.append((bound, running))
        yield HistogramMetricFamily(
            "krypkasino_move_seconds",
            "From receiving a play to its commit and fan-out",
            buckets=cumulative,
            sum_value=self.total_seconds,
        )


class ServiceCollector:
    """The room service's own counters, read when Prometheus scrapes: how it fares
    when parts fail (conflicts, failed writes, recoveries, Redis) and what its timers
    did.  Read at scrape time so the service keeps plain integers, free of this library."""

    def __init__(self, service: Any) -> None:
        self.service = service

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        s = self.service
        stats = s.stats
        for name, value, text in (
            (
                "krypkasino_write_conflicts",
                stats.conflicts,
                "Writes that lost a race with another process and were revalidated",
            ),
            (
                "krypkasino_write_failures",
                stats.write_failures,
                "Writes the database did not take; answered with an error, never acknowledged",
            ),
            (
                "krypkasino_room_reloads",
                stats.recoveries,
                "Rooms reloaded from the database after a conflict or a failed write",
            ),
        ):
            yield CounterMetricFamily(name, text, value=value)
        timers = CounterMetricFamily(
            "krypkasino_timer_moves", "Moves this process's timers made", labels=["kind"]
        )
        for kind in ("bot", "clock", "standin", "grace"):
            timers.add_metric([kind], stats.timer_moves.get(kind, 0))
        yield timers
        claimed = CounterMetricFamily(
            "krypkasino_deadlines_claimed",
            "Correspondence rooms' deadlines this process claimed and fired",
            labels=["kind"],
        )
        for kind in ("move", "warn24", "warn1"):
            claimed.add_metric([kind], stats.deadlines_claimed.get(kind, 0))
        yield claimed
        yield CounterMetricFamily(
            "krypkasino_deadlines_released",
            "Claimed deadlines given back unfired, to be claimed again (a failed move)",
            value=stats.deadlines_released,
        )
        yield CounterMetricFamily(
            "krypkasino_deadlines_skipped",
            "Claimed deadlines that found their room moved on: nothing to play",
            value=stats.deadlines_skipped,
        )
        yield GaugeMetricFamily(
            "krypkasino_rooms_stale",
            "Rooms waiting for the database before they can go on",
            value=sum(1 for rt in s.rooms.values() if rt.stale),
        )
        yield GaugeMetricFamily(
            "krypkasino_leases_held",
            "Rooms whose timers this process runs (several processes)",
            value=len(s.leases.held()),
        )
        bots = s.bots.stats
        yield GaugeMetricFamily(
            "krypkasino_bot_queue_depth",
            "Strong-bot moves waiting for a worker process",
            value=s.bots.queued,
        )
        yield GaugeMetricFamily(
            "krypkasino_bot_workers",
            "Worker processes the strong bot thinks in",
            value=s.bots.workers,
        )
        yield CounterMetricFamily(
            "krypkasino_bot_shortened",
            "Strong-bot moves given less than the full budget (pool busy)",
            value=bots.shortened,
        )
        yield CounterMetricFamily(
            "krypkasino_bot_overflow",
            "Strong-bot moves the greedy bot answered (queue full or late)",
            value=bots.overflow,
        )
        yield _histogram(
            "krypkasino_bot_move_seconds",
            "From asking the strong bot for a move to having it",
            bots,
        )
        broker = s.broker.status()
        yield GaugeMetricFamily(
            "krypkasino_broker_up",
            "1 while the broker delivers other processes' changes",
            value=1 if broker.get("ok") else 0,
        )
        yield CounterMetricFamily(
            "krypkasino_broker_losses",
            "Times the Redis subscriber lost its connection",
            value=_count(broker.get("losses")),
        )


class SqliteCollector:
    """Where SQLite's writes ran (app/db/inline_sqlite.py), read when Prometheus
    scrapes: writes handed over to the writer thread, and slow commits on the loop,
    say that something else held the lock or that the disk was slow."""

    def __init__(self, loop_writes: LoopWrites) -> None:
        self.loop_writes = loop_writes

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        from app.db.inline_sqlite import SLOW_BACKOFF_SECONDS, SLOW_COMMIT_SECONDS

        stats = self.loop_writes.stats
        slow = (
            f"Commits on the loop slower than {SLOW_COMMIT_SECONDS * 1000:g} ms"
            f" (writes then go to the thread for {SLOW_BACKOFF_SECONDS:g} s)"
        )
        for name, key, text in (
            ("krypkasino_sqlite_loop_commits", "loop_commits", "Commits on the event loop"),
            ("krypkasino_sqlite_loop_writes", "loop_jobs", "Writes committed on the loop"),
            (
                "krypkasino_sqlite_handed_over",
                "handed_over",
                "Writes the loop handed to the writer thread (lock taken, failure, slow disk)",
            ),
            ("krypkasino_sqlite_slow_commits", "slow", slow),
        ):
            yield CounterMetricFamily(name, text, value=stats[key])


def _histogram(name: str, text: str, stats: Any) -> HistogramMetricFamily:
    """A Prometheus histogram from the bot runner's plain bucket counts."""
    from app.rooms.botrunner import LATENCY_BUCKETS

    cumulative, running = [], 0
    for bound, count in zip([*map(str, LATENCY_BUCKETS), "+Inf"], stats.buckets, strict=False):
        running += count
        cumulative.append((bound, running))
    return HistogramMetricFamily(name, text, buckets=cumulative, sum_value=stats.latency_sum)


def _count(value: object) -> int:
    """A count from a status dict (0 when absent)."""
    return int(value) if isinstance(value, (int, float)) else 0


class CoachCollector:
    """The coach's analyses (app/coach/runner.py), read when Prometheus scrapes."""

    def __init__(self, runner: Any, background: Any) -> None:
        self.runner = runner
        self.background = background

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        yield CounterMetricFamily(
            "krypkasino_coach_analyses",
            "Deal analyses this process computed and stored",
            value=self.runner.computed,
        )
        yield CounterMetricFamily(
            "krypkasino_coach_plays",
            "Plays this process rated for the coach's analyses",
            value=self.runner.plays_rated,
        )
        yield CounterMetricFamily(
            "krypkasino_coach_pauses",
            "Times the analyses stepped aside for live strong-bot moves",
            value=self.background.pauses,
        )
        yield CounterMetricFamily(
            "krypkasino_coach_steps",
            "Steps (sampled worlds) of the analyses, each begun only with no live move in flight",
            value=self.background.steps,
        )
        yield CounterMetricFamily(
            "krypkasino_coach_live_periods",
            "Times live strong-bot moves began to be in flight (analyses asked to step aside)",
            value=self.background.live_periods,
        )


class BackgroundCollector:
    """Rounds finished by the background loops that look for work on their own (the
    ratings' catch-up, the daily digest): a test that shows a second process adds
    nothing waits until both have looked again, instead of sleeping."""

    def __init__(self, ratings: Any, email: Any | None) -> None:
        self.ratings = ratings
        self.email = email

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        rounds = CounterMetricFamily(
            "krypkasino_background_rounds",
            "Rounds this process's background loops finished, by loop",
            labels=["loop"],
        )
        rounds.add_metric(["ratings"], self.ratings.rounds)
        rounds.add_metric(["digest"], self.email.looks if self.email is not None else 0)
        yield rounds
