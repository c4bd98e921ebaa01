"""A fresh clock on a deal a player had not seen yet (issue 47).

The next deal follows a between-deals pause when every connected person pressed
Continue or when the pause ran out.  A seat that had not pressed Continue may not be
looking at the table when the deal starts: its summary was still open, its tab was
hidden, its socket was down.  Its clock must not run on a deal it cannot see.  So
each such seat's first turn of the deal is timed from when its client showed the
deal (a ``shown`` event, the client's ``deal_shown`` message), never from before
the deal: at the latest from the deal plus the room's grace, so that a client that
never says so still gets a clock (and an absent player is replaced by a stand-in
bot by the grace period as before).

Everything here is counted from stored events' times (the deal's, the ``shown``
event's) and the room's stored ``grace``, so every process and every restart
computes the same deadlines, like the clock itself (``RoomState.clock``).
"""

from __future__ import annotations

from collections.abc import Iterable


class FirstTurns:
    """The seats of the deal in play whose first turn waits for their client to show
    the deal, and when each one's clock may start at the earliest."""

    __slots__ = ("floor", "unseen")

    def __init__(self) -> None:
        self.floor: dict[int, int] = {}
        """Per waiting seat: no clock of its first turn starts before this (Unix ms)."""
        self.unseen: set[int] = set()
        """Waiting seats whose client has not said yet that it shows the deal."""

    def deal(self, seats: Iterable[int], at: int, wait_ms: int) -> None:
        """A deal started at ``at``: ``seats`` wait for their client, ``wait_ms`` at most."""
        self.floor = {seat: at + wait_ms for seat in seats}
        self.unseen = set(self.floor)

    def awaits(self, seat: int) -> bool:
        """Whether the seat's ``deal_shown`` would change anything (once per deal)."""
        return seat in self.unseen

    def shown(self, seat: int, at: int) -> None:
        """The seat's client showed the deal at ``at``: its first turn counts from then
        (or from the bound, if that came first)."""
        if seat in self.unseen:
            self.unseen.discard(seat)
            self.floor[seat] = min(self.floor[seat], at)

    def played(self, seat: int) -> None:
        """The seat's first turn is over: its later turns are timed as usual."""
        self.floor.pop(seat, None)
        self.unseen.discard(seat)

    def start(self, seat: int, since: int) -> int:
        """When the turn of ``seat`` that began at ``since`` starts its clock."""
        floor = self.floor.get(seat)
        return since if floor is None else max(since, floor)
