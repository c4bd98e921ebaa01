"""Take-back and hint for one person playing against bots (issue 33): who may, and what
a take-back undoes.

Both exist only in a room where exactly one seat is a person's and every other seat
is a bot from the room's creation: with two or more people at the table, undoing a
play or asking a bot would be unfair to the others.  Never in a rated room (issue 34):
a rating says how a person plays unaided.  Nor in a challenge (the deal of the day,
issue 32): every player of it plays the same game, alone.  A person's seat that a stand-in
bot plays for while they are away still counts as a person's.  Pure functions of the
room's seats, options and deal; the commands (app/rooms/commands/assist.py) refuse
with their codes, the views (room_views.py) tell the client what it may ask now.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.deal import Deal
from app.wire.view import AssistView

from .options import RoomOptions, SeatState

OFF = "off"
UNTIL_BOT = "until_bot"
ALWAYS = "always"


def assisted_seat(seats: Sequence[SeatState]) -> int | None:
    """The seat of the one person at a table of bots; None in any other room (two or
    more people, or a seat still free)."""
    person: int | None = None
    for i, s in enumerate(seats):
        if s.bot:
            continue
        if person is not None or not s.taken:
            return None
        person = i
    return person


def takeback_plays(deal: Deal | None, playing: bool, seat: int, mode: str) -> int | None:
    """How many of the deal's standing plays a take-back by ``seat`` undoes now: its last
    play and, with ``always``, every bot's play after it.  None when there is nothing it
    may take back: the option is off, no play of its own stands in this deal, a bot has
    played since (``until_bot``), or the deal is over (its scores are the match's)."""
    if mode == OFF or not playing or deal is None or deal.is_over:
        return None
    results = deal.results
    for back in range(1, len(results) + 1):
        if results[-back].seat == seat:
            return back if back == 1 or mode == ALWAYS else None
    return None


def may_hint(deal: Deal | None, playing: bool, seat: int) -> bool:
    """A hint is for the position the person is to move in."""
    return playing and deal is not None and deal.to_move == seat


def assist_view(
    seats: Sequence[SeatState], options: RoomOptions, playing: bool, deal: Deal | None
) -> AssistView | None:
    """The view's ``assist``: what the one person may ask for now (None in any other room).
    Public (who may take back is no secret); a hint itself goes to the asking connection
    only, as it names a card of the person's hand."""
    seat = assisted_seat(seats)
    if seat is None or options.rated or options.challenge:
        return None  # a rated match (issue 34) and a challenge (issue 32) are played unaided
    return {
        "seat": seat,
        "takeback": takeback_plays(deal, playing, seat, options.takeback) is not None,
        "hint": may_hint(deal, playing, seat),
    }
