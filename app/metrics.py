"""Prometheus metrics, one registry per app so tests can run several apps."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


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
