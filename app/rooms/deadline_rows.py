"""What a correspondence room waits for, as rows of ``room_deadlines`` (issue 32).

The write path computes these after applying a command's events and hands them to
the store with the events, so the rows change in the same transaction as the room:
a row exists exactly while the room waits for a seat to move, and always says when
that move falls due.  A person's move falls due at their deadline (with warnings 24
hours and 1 hour before it); a bot's (a bot seat, or a bot standing in for a person)
after the room's bot delay, so that bots move with nobody connected and the next
person is due.
"""

from __future__ import annotations

from .domain.correspondence import MOVE, DeadlineSpec, person_rows
from .domain.state import RoomState
from .settings import ServiceSettings


def deadline_rows(st: RoomState, settings: ServiceSettings, now: int) -> list[DeadlineSpec] | None:
    """The room's rows after its latest event (written at ``now``); None for a live
    room (it has none, and its table is not touched)."""
    corr = st.corr
    if corr is None:
        return None
    seat = st.to_move
    if seat is None:
        return []
    if st.bot_controls(seat):
        due = st.bot_due()
        if all(st.bot_controls(i) for i in range(st.players)):  # a table of bots alone
            due = max(due, st.changed_at + int(settings.bots_only_delay * 1000))
        return [DeadlineSpec(MOVE, corr.turn_seq, seat, due, bot=True)]
    return person_rows(corr, seat, now)
