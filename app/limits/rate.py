"""Token buckets: one per connection (``TokenBucket``: its messages, chat lines,
reactions) and one per client address (``KeyedRateLimit``), and per-key counters.

A bucket holds up to ``burst`` tokens and refills at a steady rate; each request
takes one.  Both kinds refill by the same ``refill``.  Buckets of keys not seen for a while are
dropped, so memory stays bounded by the number of addresses active in the
last few minutes, whatever a flood of addresses does: at most ``max_keys``
buckets are kept, the least recently used going first.
"""

from __future__ import annotations

import time
from collections import OrderedDict


def refill(tokens: float, stamp: float, now: float, rate: float, burst: float) -> float:
    """The tokens a bucket holds at ``now`` that held ``tokens`` at ``stamp``."""
    return min(burst, tokens + (now - stamp) * rate)


class TokenBucket:
    """One connection's bucket for one kind of message: ``rate`` a second, bursts up to
    ``burst``; ``refused`` counts the messages it turned away."""

    __slots__ = ("burst", "rate", "refused", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self, now: float | None = None) -> bool:
        """Take a token; False (and nothing taken) when there is none."""
        now = time.monotonic() if now is None else now
        self.tokens = refill(self.tokens, self.stamp, now, self.rate, self.burst)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


class KeyedRateLimit:
    def __init__(
        self, per_minute: float, burst: int | None = None, max_keys: int = 100_000
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1, int(per_minute)))
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.refused = 0

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take a token for ``key``; False (and nothing taken) when it has none left."""
        if self.rate <= 0:
            return True  # 0 turns the limit off
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.pop(key, (self.burst, now))
        tokens = refill(tokens, stamp, now, self.rate, self.burst)
        allowed = tokens >= 1
        if allowed:
            tokens -= 1
        else:
            self.refused += 1
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return allowed

    def available(self, key: str, now: float | None = None) -> bool:
        """Whether ``key`` has a token now, without taking it (to refuse before doing
        costly work, such as looking a token up in the database)."""
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        return refill(tokens, stamp, now, self.rate, self.burst) >= 1

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` has a token again (for Retry-After)."""
        if self.rate <= 0:
            return 0
        tokens, _ = self._buckets.get(key, (self.burst, 0.0))
        return max(1, int((1 - tokens) / self.rate + 0.999))


class KeyedCounter:
    """How many of something (open WebSockets) each key holds right now."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def get(self, key: str) -> int:
        return self._counts.get(key, 0)

    def add(self, key: str) -> None:
        self._counts[key] = self._counts.get(key, 0) + 1

    def remove(self, key: str) -> None:
        n = self._counts.get(key, 0) - 1
        if n > 0:
            self._counts[key] = n
        else:
            self._counts.pop(key, None)

    def total(self) -> int:
        return sum(self._counts.values())
