"""The message of correspondence rooms (issue 32): a seated player's vacation on or off.
Its effect is an event (its patch reaches everyone: the view's ``vacation`` and the
mover's ``clock``)."""

from __future__ import annotations

from typing import Literal

from app.wire.registry import Incoming, client_message


@client_message
class Vacation(Incoming):
    """Switch my seat's vacation on (my clock stops) or off (it goes on with the time
    it had left)."""

    type: Literal["vacation"]
    on: bool
