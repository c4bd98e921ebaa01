"""Sign-in attempts, slowed per account and per address (issue 34).

Failures are rows in the database (``sign_in_failures``), so every server process
counts the same ones and a restart forgets nothing.  A name past
``per_account`` failures within ``window_s`` is refused for everyone until the
oldest of them leaves the window, and so is an address past ``per_address``
(whatever names it tries): guessing one person's password, and trying one
password on many names, are both slowed.  A successful sign-in clears its
account's count.  A refusal is 429 ``too_many_attempts`` with Retry-After.
"""

from __future__ import annotations

from dataclasses import dataclass

from .store import AccountStore


class TooManyAttempts(Exception):
    """429 ``too_many_attempts``; ``retry_after`` in whole seconds."""

    code = "too_many_attempts"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many failed sign-ins; try again in {retry_after} s")
        self.message = str(self)
        self.retry_after = retry_after


def account_scope(username_key: str) -> str:
    return f"account:{username_key}"


def address_scope(address: str) -> str:
    return f"address:{address}"[:100]


@dataclass(frozen=True, slots=True)
class AttemptLimits:
    per_account: int
    per_address: int
    window_s: int


class Attempts:
    def __init__(self, store: AccountStore, limits: AttemptLimits) -> None:
        self.store, self.limits = store, limits

    def _limits(self, username_key: str, address: str) -> dict[str, int]:
        found = {}
        if self.limits.per_account > 0:
            found[account_scope(username_key)] = self.limits.per_account
        if self.limits.per_address > 0:
            found[address_scope(address)] = self.limits.per_address
        return found

    async def check(self, username_key: str, address: str, now_ms: int) -> None:
        """Raise TooManyAttempts while either scope is over its limit."""
        limits = self._limits(username_key, address)
        if not limits:
            return
        window_ms = self.limits.window_s * 1000
        counts = await self.store.failures(list(limits), now_ms - window_ms)
        waits = [
            (found.oldest_ms + window_ms - now_ms)
            for scope, found in counts.items()
            if found.count >= limits[scope]
        ]
        if waits:
            raise TooManyAttempts(max(1, (max(waits) + 999) // 1000))

    async def failed(self, username_key: str, address: str, now_ms: int) -> None:
        scopes = list(self._limits(username_key, address))
        if scopes:
            await self.store.add_failure(scopes, now_ms, now_ms - self.limits.window_s * 1000)

    async def succeeded(self, username_key: str) -> None:
        if self.limits.per_account > 0:
            await self.store.clear_failures(account_scope(username_key))
