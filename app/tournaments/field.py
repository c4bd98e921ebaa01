"""Who is in an event's field now, as the formats' rules ask it (pure)."""

from __future__ import annotations

from .store import Snapshot

FINISHED = "finished"


def active(snap: Snapshot) -> list[str]:
    """Entrants not withdrawn, in account-id order."""
    return sorted(e.account_id for e in snap.entrants if e.withdrawn_ms is None)
