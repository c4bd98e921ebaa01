"""Sign-in attempts, slowed so that nobody can lock someone else out (issues 34 and 46).

Failures are rows in the database (``sign_in_failures``), so every server process
counts the same ones and a restart forgets nothing.  Each failure is counted in
scopes, and a sign-in is refused (429 ``too_many_attempts`` with Retry-After) while
one of the scopes it is checked against is at its limit, until the oldest failure
there leaves the window:

- per name and address (``per_account`` within ``window_s``): guessing one person's
  password from one place.  Someone failing from other addresses does not touch the
  person's own address;
- per address (``per_address`` within ``window_s``), whatever the names: trying one
  password on many names;
- per name from everywhere (``per_account_total`` within ``total_window_s``): a spray
  from many addresses.  High enough that only such a spray reaches it;
- a browser that signed in to the account before (its device cookie,
  app/accounts/tokens.py) is checked against its own scope only (``per_account``
  within ``window_s``): none of the above stops it, and its failures do not count
  for the name and address pair.

A successful sign-in clears its name-and-address scope and its browser's scope; the
counts per address and per name from everywhere run out with their windows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .store import AccountStore


class TooManyAttempts(Exception):
    """429 ``too_many_attempts``; ``retry_after`` in whole seconds."""

    code = "too_many_attempts"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many failed sign-ins; try again in {retry_after} s")
        self.message = str(self)
        self.retry_after = retry_after


def account_scope(username_key: str) -> str:
    return f"account:{username_key}"[:100]


def address_scope(address: str) -> str:
    return f"address:{address}"[:100]


def pair_scope(username_key: str, address: str) -> str:
    joined = f"{username_key}\n{address}".encode()
    return "pair:" + hashlib.sha256(joined).hexdigest()[:40]


def device_scope(device_id: str) -> str:
    return f"device:{device_id}"[:100]


@dataclass(frozen=True, slots=True)
class AttemptLimits:
    per_account: int
    """Failures at one name from one address (or one known browser) within ``window_s``."""
    per_address: int
    """Failures from one address, whatever the names, within ``window_s``."""
    window_s: int
    per_account_total: int = 100
    """Failures at one name from everywhere within ``total_window_s`` (a spray)."""
    total_window_s: int = 3600

    @classmethod
    def from_settings(cls, settings: Any) -> AttemptLimits:
        """The LOGIN_* settings (app/config.py)."""
        return cls(
            per_account=settings.login_failures_per_account,
            per_address=settings.login_failures_per_address,
            window_s=settings.login_failure_window,
            per_account_total=settings.login_failures_account_total,
            total_window_s=settings.login_total_window,
        )


class Attempts:
    def __init__(self, store: AccountStore, limits: AttemptLimits) -> None:
        self.store, self.limits = store, limits

    def _checked(
        self, username_key: str, address: str, device: str | None
    ) -> dict[str, tuple[int, int]]:
        """The scopes a sign-in is checked against: (limit, window in ms) of each."""
        lim = self.limits
        short, long = lim.window_s * 1000, lim.total_window_s * 1000
        if device is not None:
            found = {device_scope(device): (lim.per_account, short)}
        else:
            found = {
                pair_scope(username_key, address): (lim.per_account, short),
                address_scope(address): (lim.per_address, short),
                account_scope(username_key): (lim.per_account_total, long),
            }
        return {scope: got for scope, got in found.items() if got[0] > 0}

    async def check(
        self, username_key: str, address: str, now_ms: int, device: str | None = None
    ) -> None:
        """Raise TooManyAttempts while a scope of this sign-in is at its limit.
        ``device``: the browser's device id for this account (it signed in before)."""
        limits = self._checked(username_key, address, device)
        waits = []
        for window in {w for _, w in limits.values()}:
            scopes = [s for s, (_, w) in limits.items() if w == window]
            counts = await self.store.failures(scopes, now_ms - window)
            waits += [
                found.oldest_ms + window - now_ms
                for scope, found in counts.items()
                if found.count >= limits[scope][0]
            ]
        if waits:
            raise TooManyAttempts(max(1, (max(waits) + 999) // 1000))

    async def failed(
        self, username_key: str, address: str, now_ms: int, device: str | None = None
    ) -> None:
        """Count a failure: in the browser's scope (if known) or the name and address
        pair's, and in the address's and the name's from everywhere."""
        lim = self.limits
        if not (lim.per_account or lim.per_address or lim.per_account_total):
            return
        first = device_scope(device) if device else pair_scope(username_key, address)
        scopes = [first, address_scope(address), account_scope(username_key)]
        keep = max(lim.window_s, lim.total_window_s) * 1000
        await self.store.add_failure(scopes, now_ms, now_ms - keep)

    async def succeeded(self, username_key: str, address: str, device: str | None = None) -> None:
        await self.store.clear_failures(pair_scope(username_key, address))
        if device is not None:
            await self.store.clear_failures(device_scope(device))
