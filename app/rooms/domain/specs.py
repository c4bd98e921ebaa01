"""Events to write, before they have their seq, and the ones a room needs next by itself.

A command validates against the room's state and says which events to write
(``Make``); the write path (app/rooms/writes.py) numbers them, applies them,
and adds what follows on its own (``followup``): a match once every seat is
taken, the next deal once one ended (unless the room pauses between deals).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.engine.shuffle import new_seed

from .correspondence import CLOCK_MOVES_TO_BOT
from .events import AutoplaySet, DealStarted, EventBody, MatchStarted
from .state import PLAYING, WAITING, RoomState


@dataclass(frozen=True, slots=True)
class Spec:
    """An event to write, before it has its seq."""

    body: EventBody
    token_hash: str | None = None
    """For a seat taken by a person: the hash of the seat's new token (stored with the
    seat, never in the event)."""


Make = Callable[[RoomState], list[Spec]]
"""A command: validates against the room's state and says which events to write
(raises ServiceError, and nothing changes, when it is refused)."""


def match_spec(st: RoomState) -> Spec:
    """The next match: its first dealer drawn (R2.1), or the preset's for a room whose
    first deal is fixed in advance (issue 32: its first match only)."""
    preset = st.options.preset
    if preset is not None and st.match_no == 0:
        first_dealer = preset.dealer
    else:
        first_dealer = secrets.randbelow(st.players)  # R2.1
    return Spec(MatchStarted(st.match_no + 1, first_dealer, st.players))


def deal_spec(st: RoomState) -> Spec:
    """The next deal of the match (a fresh seed, R2; the preset's for the first deal of
    a room whose first deal is fixed in advance)."""
    assert st.match is not None
    deal_no = st.deal_no + 1
    dealer = st.match.dealer_for(deal_no)
    preset = st.options.preset
    fixed = preset is not None and st.match_no == 1 and deal_no == 1
    seed = preset.seed if fixed and preset is not None else new_seed()
    return Spec(DealStarted(seed, st.match_no, deal_no, dealer, st.rules.copies, st.players))


def followup(st: RoomState) -> Spec | None:
    """The event the room needs next on its own: a match when all are seated, a bot
    for a correspondence seat that ran out of time three times in a row, a deal
    (unless the room pauses between deals: then app/rooms/pacing.py deals when
    everyone pressed Continue or the pause ran out)."""
    if st.status == WAITING and st.all_seated:
        return match_spec(st)
    if st.corr is not None and st.status == PLAYING:
        # three clock moves in a row in a correspondence room: a bot takes the seat
        # for the rest of the match (its player takes it back by coming back, issue 32)
        for seat, moves in enumerate(st.corr.clock_moves):
            seat_state = st.seats[seat]
            if not seat_state.bot and not seat_state.autoplay and moves >= CLOCK_MOVES_TO_BOT:
                return Spec(AutoplaySet(seat, True))
    if st.needs_next_deal() and not st.between_deals:
        return deal_spec(st)
    return None


def everyone_ready(
    st: RoomState, connected: list[bool], ready: Iterable[int] | None = None
) -> bool:
    """Whether every connected person at the table pressed Continue (seats a bot
    plays, and people who left, are not waited for)."""
    done = set(st.ready if ready is None else ready)
    return all(i in done for i in range(st.players) if connected[i] and not st.bot_controls(i))
