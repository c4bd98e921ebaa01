"""The events of a person playing against bots (issue 33): a take-back and a hint.

Only a room where exactly one person plays against bots writes them
(app/rooms/domain/assist.py says when).  They are events like any other, stored
through the one codec (event_codec.py) and applied by ``RoomState.apply``, so a
take-back and a hint survive a restart, reach every process, and are marked in
the deal's record (assist_record.py) and its replay.  Kept apart from events.py,
which imports them into ``EventBody``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

TAKEBACK = "takeback"
HINT = "hint"


@dataclass(frozen=True, slots=True)
class TakenBack:
    """The person took back their last play: the deal is again as it was before it.

    ``plays`` is how many of the deal's standing plays are undone: 1 for the person's
    own last play, more when bots had played after it (the room option ``always``)."""

    KIND: ClassVar[str] = TAKEBACK
    seat: int
    plays: int


@dataclass(frozen=True, slots=True)
class HintGiven:
    """The person asked for a hint: the strong bot's move for the position, chosen from
    the person's own information set.  Stored so that the record shows where a hint was
    asked and what it said; it is no move, and the turn clock runs on."""

    KIND: ClassVar[str] = HINT
    seat: int
    card: str
    take: tuple[str, ...] = ()
