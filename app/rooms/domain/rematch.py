"""A rematch is offered and accepted, not imposed (issue 33): the open offer.

One seated player's Rematch opens an offer; every other seated person must accept
it before the next match starts.  Seats a bot plays (a bot seat, or a stand-in for
an absent player) accept by themselves.  A decline, or the offer's deadline passing
with no answer, withdraws it.  The state (state.py) holds the offer; the commands
(app/rooms/commands/rematch.py) decide which events to write, and the timer
(app/rooms/rematch_expiry.py) writes the expiry.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.wire.view import RematchView


@dataclass(slots=True)
class RematchOffer:
    """The open offer: who made it, who accepted it (the offerer first), and when it
    lapses (Unix ms: the offer event's time plus its timeout)."""

    by: int
    accepted: set[int]
    deadline: int

    def view(self) -> RematchView:
        return {"by": self.by, "accepted": sorted(self.accepted), "deadline": self.deadline}
