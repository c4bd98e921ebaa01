"""The view a connection holds, kept from ``snapshot`` and ``patch`` messages.

``seq`` numbers the room's states and has no gaps (docs/protocol.md): a patch for
``seq`` N turns the view of N-1 into that of N.  A patch that skips a number, or does
not apply, means this copy can no longer be trusted: ``ViewState`` says so and the
bot reconnects, with its last good ``seq`` after a gap (the server sends the missed
patches, or a snapshot) and with none after a patch that failed (a fresh snapshot).
"""

from __future__ import annotations

import enum

from .jsontypes import JsonMap, JsonValue, as_int, as_objects, field, obj
from .patch import PatchError, apply_patch
from .view import View

__all__ = ["Applied", "ViewState"]


class Applied(enum.Enum):
    UPDATED = "updated"
    """The view moved on to the message's seq."""
    STALE = "stale"
    """A patch for a seq this view already has (a resend after a reconnect): ignored."""
    GAP = "gap"
    """A patch that skips a seq: reconnect with the last good seq."""
    BROKEN = "broken"
    """A patch that does not apply, or one before any snapshot: reconnect for a snapshot."""


class ViewState:
    def __init__(self) -> None:
        self.seq: int | None = None
        self._data: JsonMap | None = None
        self.snapshots = 0
        self.patches = 0

    @property
    def view(self) -> View | None:
        return None if self._data is None else View(self._data)

    def forget(self) -> None:
        """Drop the view: the next connection asks for a whole snapshot."""
        self.seq, self._data = None, None

    def snapshot(self, message: JsonMap) -> Applied:
        self._data = obj(field(message, "view"), "a snapshot's view")
        self.seq = as_int(message, "seq")
        self.snapshots += 1
        return Applied.UPDATED

    def patch(self, message: JsonMap) -> Applied:
        seq = as_int(message, "seq")
        if self._data is None or self.seq is None:
            return Applied.BROKEN
        if seq <= self.seq:
            return Applied.STALE
        if seq != self.seq + 1:
            return Applied.GAP
        ops = as_objects(message, "ops")
        document: JsonValue = dict(self._data)
        try:
            patched = apply_patch(document, ops)
        except PatchError:
            return Applied.BROKEN
        if not isinstance(patched, dict):
            return Applied.BROKEN
        self._data, self.seq = patched, seq
        self.patches += 1
        return Applied.UPDATED
