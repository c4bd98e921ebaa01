"""Prometheus metrics, one registry per app so tests can run several apps."""

from __future__ import annotations

from typing import Any, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rooms = Gauge("krypkasino_rooms", "Rooms held in memory", ["status"],
                           registry=self.registry)
        self.connections = Gauge("krypkasino_connections", "Open WebSocket connections",
                                 registry=self.registry)
        self.moves = Counter("krypkasino_moves", "Moves committed", registry=self.registry)
        self.move_seconds = Histogram(
            "krypkasino_move_seconds", "From receiving a play to its commit and fan-out",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry)
        self.errors = Counter("krypkasino_errors", "Refused messages and requests", ["code"],
                              registry=self.registry)

    def observe_move(self, seconds: float) -> None:
        self.moves.inc()
        self.move_seconds.observe(seconds)


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
                ("krypkasino_write_conflicts", stats.conflicts,
                 "Writes that lost a race with another process and were revalidated"),
                ("krypkasino_write_failures", stats.write_failures,
                 "Writes the database did not take; answered with an error, never acknowledged"),
                ("krypkasino_room_reloads", stats.recoveries,
                 "Rooms reloaded from the database after a conflict or a failed write")):
            yield CounterMetricFamily(name, text, value=value)
        timers = CounterMetricFamily("krypkasino_timer_moves",
                                     "Moves this process's timers made", labels=["kind"])
        for kind in ("bot", "clock", "grace"):
            timers.add_metric([kind], stats.timer_moves.get(kind, 0))
        yield timers
        yield GaugeMetricFamily("krypkasino_rooms_stale",
                                "Rooms waiting for the database before they can go on",
                                value=sum(1 for rt in s.rooms.values() if rt.stale))
        yield GaugeMetricFamily("krypkasino_leases_held",
                                "Rooms whose timers this process runs (several processes)",
                                value=len(s.leases.held()))
        broker = s.broker.status()
        yield GaugeMetricFamily("krypkasino_broker_up",
                                "1 while the broker delivers other processes' changes",
                                value=1 if broker.get("ok") else 0)
        yield CounterMetricFamily("krypkasino_broker_losses",
                                  "Times the Redis subscriber lost its connection",
                                  value=int(broker.get("losses", 0)))  # type: ignore[call-overload]
