"""The admin token: ``Authorization: Bearer TOKEN`` whose SHA-256 is ADMIN_TOKEN_HASH.

Only the hash is configured, so the token is in no file and no environment
of the server; the hashes are compared with ``hmac.compare_digest`` (constant
time).  Wrong or missing tokens are counted per client address: past a small
burst (ADMIN_FAILURE_BURST, refilled one every ADMIN_FAILURE_REFILL seconds)
that address (an IPv6 client: its network) gets 429 for everything, the right
token included, so guessing gains nothing from speed.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections import OrderedDict
from collections.abc import Callable

from fastapi import Request

from .clients import DEFAULT_IPV6_PREFIX, client_key

ADMIN_FAILURE_BURST = 10
ADMIN_FAILURE_REFILL = 6.0
"""Seconds per refused attempt regained: 10 a minute once the burst is used up."""
TRACKED_ADDRESSES = 10_000
"""Client addresses remembered at most (the oldest are forgotten first)."""


class AdminRefused(Exception):
    """401 or 429 from the admin gate, as {"code", "message"}."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class AdminGate:
    def __init__(
        self,
        expected_hash: str | None,
        on_refused: Callable[[str], None],
        ipv6_prefix: int = DEFAULT_IPV6_PREFIX,
    ) -> None:
        self.expected_hash = expected_hash
        self.ipv6_prefix = ipv6_prefix
        """Failures are counted per IPv6 network of this many bits (app/limits/clients.py)."""
        self.on_refused = on_refused
        """Counts a refusal by its limit's name (the metrics' ``refused``)."""
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """address -> (failures allowance left, when it was counted)."""

    @property
    def enabled(self) -> bool:
        return self.expected_hash is not None

    def check(self, request: Request) -> None:
        """Let the request through, or raise AdminRefused (401 unauthorized, 429)."""
        address = client_key(request.scope, self.ipv6_prefix)
        allowance = self._allowance(address)
        if allowance < 1:
            self.on_refused("admin_token")
            raise AdminRefused(
                429,
                "rate_limited",
                "too many wrong admin tokens; wait a minute",
                retry_after=int(ADMIN_FAILURE_REFILL),
            )
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        given = token_hash(token.strip()) if scheme.lower() == "bearer" and token.strip() else ""
        if self.expected_hash is not None and hmac.compare_digest(given, self.expected_hash):
            return
        self._buckets[address] = (allowance - 1, time.monotonic())
        self._buckets.move_to_end(address)
        while len(self._buckets) > TRACKED_ADDRESSES:
            self._buckets.popitem(last=False)
        raise AdminRefused(
            401, "unauthorized", "a valid admin token is needed (Authorization: Bearer TOKEN)"
        )

    def _allowance(self, address: str) -> float:
        left, stamp = self._buckets.get(address, (float(ADMIN_FAILURE_BURST), time.monotonic()))
        regained = (time.monotonic() - stamp) / ADMIN_FAILURE_REFILL
        return min(float(ADMIN_FAILURE_BURST), left + regained)
