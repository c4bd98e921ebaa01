"""What keeps a rating honest against one person's several accounts and against a
leaver (issue 46): which seats a seat's rating ignores, and where accounts were seen.

- **Shared accounts.** Two accounts seen at one client address (an IPv6 client: its
  IPV6_PREFIX network), or with one player key (a browser), within
  RATINGS_SHARED_DAYS before a rated match ends do not change each other's ratings
  in it: each one's rating is worked out as if the other had not played.  Whatever
  one "loses" to the other, the other gains nothing from it, so a puppet account
  cannot hand its owner wins.
- **Leavers.** A player who left is ranked last, against everyone, and loses for it;
  but a player who stayed is rated as if the leavers had not played: nobody gains
  from a leaver, so leaving on purpose hands nobody a win.

A seat's rating is updated by the model over the seats it does not ignore (itself
among them); a seat that ignores every other keeps its rating.  With nothing
ignored this is exactly the update of the whole match (Plackett-Luce updates each
seat from the ratings and ranks of all).  Bots are anchors and never updated.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Collection, Sequence
from dataclasses import dataclass

SHARED = "shared"
"""Why a seat ignores another: the two accounts shared an address or a player key."""
LEFT = "left"
"""Why a seat that stayed ignores another: that one left (a stand-in finished it)."""
ADDRESS, KEY = "address", "key"
"""The kinds of sighting: a client address (its keyed hash), a player key (its hash)."""

SEEN_EVERY_MS = 3_600_000
"""A process writes one sighting (account, kind, value) at most once an hour: the
window is counted in days."""
MAX_REMEMBERED = 50_000
"""Sightings a process remembers having written (then it forgets them all)."""


@dataclass(frozen=True, slots=True)
class SeatWho:
    """A seat as the guards see it."""

    seat: int
    account_id: str | None
    left: bool


def ignored(
    seats: Sequence[SeatWho], linked: Collection[frozenset[str]]
) -> dict[int, dict[int, str]]:
    """Per seat of an account, the seats its rating ignores and why (``SHARED`` before
    ``LEFT``): accounts ``linked`` to it, and, for a seat that stayed, the seats that
    left.  Seats that ignore nothing are not listed."""
    found: dict[int, dict[int, str]] = {}
    for s in seats:
        if s.account_id is None:
            continue
        apart: dict[int, str] = {}
        for o in seats:
            if o.seat == s.seat:
                continue
            if o.account_id is not None and frozenset((s.account_id, o.account_id)) in linked:
                apart[o.seat] = SHARED
            elif o.left and not s.left:
                apart[o.seat] = LEFT
        if apart:
            found[s.seat] = apart
    return found


def address_hash(secret: bytes, address: str) -> str:
    """What is kept of a client address: keyed with the server's secret, so that the
    row alone does not give the address back."""
    return hmac.new(secret, b"krypkasino-seen:" + address.encode(), hashlib.sha256).hexdigest()


class Remembered:
    """The sightings this process wrote lately, so that a busy account's every request
    does not write one again."""

    def __init__(self) -> None:
        self._written: dict[tuple[str, str, str], int] = {}

    def due(self, account_id: str, kind: str, value: str, now_ms: int) -> bool:
        """Whether this sighting should be written now (and note that it will be)."""
        key = (account_id, kind, value)
        last = self._written.get(key)
        if last is not None and now_ms - last < SEEN_EVERY_MS:
            return False
        if len(self._written) >= MAX_REMEMBERED:
            self._written.clear()
        self._written[key] = now_ms
        return True

    def forget(self, account_id: str, kind: str, value: str) -> None:
        """A write that failed: try it again at the next request."""
        self._written.pop((account_id, kind, value), None)
