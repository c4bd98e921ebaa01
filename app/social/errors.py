"""Chat's and reactions' own refusals (issue 12); the shared ones are
``app.core.errors``'s (a spectator taking a player's name is the shared
``name_reserved``: seats and pairing tickets refuse it too).

Wire codes (docs/protocol.md): the strings never change."""

from __future__ import annotations

from enum import StrEnum


class SocialCode(StrEnum):
    CHAT_RATE_LIMITED = "chat_rate_limited"
    REACTION_RATE_LIMITED = "reaction_rate_limited"
