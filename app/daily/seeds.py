"""What a day's seed decides, derived so that publishing the seed proves it all.

The day's seed S is drawn from the operating system (``new_seed``) and its
commitment SHA-256(S) (app/engine/shuffle.py's ``commitment``) published at
once.  The deal's own seed is derived from S, not S itself: a room's record
shows its deal's seed as soon as the deal is over, and S must stay secret until
the day is (knowing it, one could compute the bots' answers to every play).
Once S is published anyone can check its commitment and recompute, with the
functions here, the pack (``pack_seed`` and the shuffle), the dealer and the
bots' seed of every room that played the day's deal.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta


def _derive(day_seed: str, what: str) -> str:
    return hashlib.sha256(f"krypkasino-daily|{what}|{day_seed}".encode()).hexdigest()


def pack_seed(day_seed: str) -> str:
    """The seed the day's deal is dealt from (its pack: ``shuffled_pack(pack_seed(S))``)."""
    return _derive(day_seed, "pack")[:32]


def bot_seed(day_seed: str) -> str:
    """The seed every server move of the day's rooms is drawn from (with the position)."""
    return _derive(day_seed, "bots")


def dealer(day_seed: str, players: int) -> int:
    """The day's dealer (R2.1, not drawn in the room): from the seed as well."""
    return int(_derive(day_seed, "dealer"), 16) % players


def utc_day(shift_days: int = 0, now: datetime | None = None) -> str:
    """Today's date in UTC as ``YYYY-MM-DD``; ``shift_days`` moves the clock (tests)."""
    moment = (now or datetime.now(UTC)) + timedelta(days=shift_days)
    return moment.astimezone(UTC).date().isoformat()


def parse_day(text: str) -> str | None:
    """``text`` as a ``YYYY-MM-DD`` date in canonical form, or None."""
    try:
        return date.fromisoformat(text).isoformat() if len(text) == 10 else None
    except ValueError:
        return None
