"""Correspondence rooms (issue 32): a room played over days, its clock and vacations.

In a room whose ``pace`` is ``correspondence`` the person to move has
``days_per_move`` days from the start of their turn (each move starts the next
player's deadline afresh: lichess's model), plus the time their vacation stopped the
clock.  Every seat has ``VACATION_DAYS`` days of vacation per match: switched on, its
clock stands still until it is switched off, the seat moves, or the days run out.

Everything here is counted from the stored times of the room's events, so a deadline
is the same in every process and after a restart.  A "day" is ``RoomOptions.day_ms``:
86,400,000 ms, shorter only in tests (the DAY_SECONDS setting, stored with the room).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from app.wire.view import VacationView

from .events import (
    CLOCK_MOVE,
    AutoplaySet,
    DealStarted,
    MatchStarted,
    Played,
    RoomEvent,
    TakenBack,
    VacationSet,
    move_by,
)

LIVE = "live"
CORRESPONDENCE = "correspondence"
DAYS_PER_MOVE = (1, 2, 3, 5, 7)
"""The times per move a correspondence room may have, in days."""
DEFAULT_DAYS_PER_MOVE = 3
VACATION_DAYS = 5
"""Vacation days each seat has per match (the issue: "a few")."""
CLOCK_MOVES_TO_BOT = 3
"""Clock moves in a row after which a bot takes the seat for the rest of the match."""
WARNINGS = (("warn24", 24), ("warn1", 1))
"""The warnings before a person's deadline: row kind and hours before it (an hour is
a 24th of the room's day)."""
MOVE = "move"


class DeadlineSpec(NamedTuple):
    """A row of ``room_deadlines`` to be: ``seat`` is to move since the turn that began
    at ``seq``, and ``kind`` falls due at ``due_ms``."""

    kind: str
    seq: int
    seat: int
    due_ms: int
    bot: bool = False
    """A bot is to move (it falls due after the bot's delay): nobody's turn to tell of."""


@dataclass(slots=True)
class SeatVacation:
    left: int
    """Ms of vacation left when it was last switched on or off."""
    since: int | None = None
    """Unix ms since when the seat is on vacation (None: it is not)."""

    def ends(self) -> int | None:
        """When a running vacation runs out (None: not on vacation)."""
        return None if self.since is None else self.since + self.left

    def left_at(self, now: int) -> int:
        if self.since is None:
            return self.left
        return max(0, self.left - max(0, now - self.since))


class Correspondence:
    """A correspondence room's turn and vacations, kept by ``RoomState.apply``."""

    __slots__ = (
        "clock_moves",
        "day_ms",
        "days",
        "turn_at",
        "turn_seq",
        "turn_used",
        "vacations",
    )

    def __init__(self, days_per_move: int, day_ms: int, players: int) -> None:
        self.days = days_per_move
        self.day_ms = day_ms
        self.turn_at = 0
        """``at`` of the event that began the turn of the seat to move."""
        self.turn_seq = 0
        """The seq of that event (the ``seq`` of the room's deadline rows)."""
        self.turn_used = 0
        """Ms of the mover's vacation already over within this turn (moves it out)."""
        self.vacations = [SeatVacation(VACATION_DAYS * day_ms) for _ in range(players)]
        self.clock_moves = [0] * players
        """Per seat, clock moves in a row since its player's own last play or since a
        bot took the seat or gave it back."""

    @property
    def per_move_ms(self) -> int:
        return self.days * self.day_ms

    def start_match(self) -> None:
        """Each match gives every seat its vacation days afresh."""
        self.vacations = [SeatVacation(VACATION_DAYS * self.day_ms) for _ in self.vacations]
        self.clock_moves = [0] * len(self.vacations)
        self.turn_used = 0

    def new_turn(self, seq: int, at: int) -> None:
        """The event at ``seq`` gave a seat its turn: its deadline starts afresh."""
        self.turn_at = at
        self.turn_seq = seq
        self.turn_used = 0

    def vacation(self, seat: int, on: bool, at: int, mover: int | None) -> None:
        """Switch ``seat``'s vacation on or off at ``at`` (``mover``: the seat to move)."""
        v = self.vacations[seat]
        if on:
            if v.since is None and v.left > 0:
                v.since = at
            return
        self.end_vacation(seat, at, mover)

    def end_vacation(self, seat: int, at: int, mover: int | None) -> None:
        """A running vacation ends at ``at`` (switched off, or the seat moved)."""
        v = self.vacations[seat]
        if v.since is None:
            return
        end = min(at, v.since + v.left)
        if seat == mover:  # the part of it within this turn moves the deadline out
            self.turn_used += max(0, end - max(v.since, self.turn_at))
        v.left = max(0, v.left - max(0, at - v.since))
        v.since = None

    def deadline(self, seat: int) -> int:
        """When ``seat`` (to move) must have moved: the start of its turn, the time per
        move, the vacation already over in this turn, and a running vacation as if it
        runs to its end."""
        due = self.turn_at + self.per_move_ms + self.turn_used
        v = self.vacations[seat]
        ends = v.ends()
        if ends is not None:
            due += max(0, ends - max(v.since or 0, self.turn_at))
        return due

    def view(self) -> list[VacationView]:
        return [{"left": v.left, "since": v.since} for v in self.vacations]


def person_rows(corr: Correspondence, seat: int, now: int) -> list[DeadlineSpec]:
    """The rows of a person's turn: the move at the deadline, and each warning whose
    moment is still to come and that is shorter than the time per move."""
    due = corr.deadline(seat)
    rows = [DeadlineSpec(MOVE, corr.turn_seq, seat, due)]
    hour = corr.day_ms // 24
    for kind, hours in WARNINGS:
        before = hours * hour
        if corr.days * 24 > hours and due - before > now:
            rows.append(DeadlineSpec(kind, corr.turn_seq, seat, due - before))
    return rows


def follow(corr: Correspondence, ev: RoomEvent, to_move: int | None) -> None:
    """Keep ``corr`` in step with the event the room just applied (``to_move``: the
    seat to move after it): a new match gives vacations afresh; a deal, a play or a
    take-back begins a turn (a play ends its seat's vacation: the player is back); a
    person taking their seat back from the bot on their turn begins it afresh."""
    body = ev.body
    if isinstance(body, MatchStarted):
        corr.start_match()
    elif isinstance(body, Played):
        corr.end_vacation(body.seat, ev.at, body.seat)
        corr.new_turn(ev.seq, ev.at)
        by = move_by(body.client_id)
        corr.clock_moves[body.seat] = corr.clock_moves[body.seat] + 1 if by == CLOCK_MOVE else 0
    elif isinstance(body, DealStarted | TakenBack):
        corr.new_turn(ev.seq, ev.at)
    elif isinstance(body, VacationSet):
        corr.vacation(body.seat, body.on, ev.at, to_move)
    elif isinstance(body, AutoplaySet):
        corr.clock_moves[body.seat] = 0
        if not body.on and to_move == body.seat:
            corr.new_turn(ev.seq, ev.at)
