"""The players' own refusals (a seat moved to another device, issue 11); the shared
ones are ``app.core.errors``'s.

Wire codes (docs/protocol.md): the strings never change."""

from __future__ import annotations

from enum import StrEnum


class PlayerCode(StrEnum):
    TRANSFER_USED = "transfer_used"
    TRANSFER_EXPIRED = "transfer_expired"
