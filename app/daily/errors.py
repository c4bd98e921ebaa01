"""The deal of the day's own refusals; the shared ones are ``app.core.errors``'s.

Wire codes (docs/protocol.md): the strings never change."""

from __future__ import annotations

from enum import StrEnum


class DailyCode(StrEnum):
    ALREADY_PLAYED = "already_played"
    """This player key has played today's deal (or is playing it) (issue 32)."""
    DAILY_PRIVATE = "daily_private"
    """A play's deals are its player's until the day is over: a spectator's review of
    its room is refused (issue 46; raised by the review, which asks the deal of the day
    whether a room is private now)."""
