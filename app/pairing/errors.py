"""Quick pairing's own refusals (issue 34); the shared ones are ``app.core.errors``'s.

Wire codes (docs/protocol.md): the strings never change."""

from __future__ import annotations

from enum import StrEnum


class PairingCode(StrEnum):
    ALREADY_QUEUED = "already_queued"
    """This player is waiting for a game already."""
    ALREADY_MATCHED = "already_matched"
    """Cancelled too late: the ticket was seated at a table."""
