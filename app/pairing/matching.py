"""Who plays whom: forming one table out of the people waiting in a queue (pure).

The queue of one player count and pace is read oldest first.  Each waiting person,
oldest first, is tried as the *anchor* of a table: the others are added, oldest
first, while they are close enough in rating to everyone already at it, until the
table is full.  A full table of people is always preferred; only when none can be
made does a table with bots form, and only of people who all chose to accept bots
and have waited at least as long as they said (``bots_after``), so nobody who
chose "never" is seated beside a bot and nobody gets bots before their time.

Ratings widen with waiting: a person rated ``r`` who has waited ``s`` seconds accepts
opponents within ``Widening.base + Widening.per_second * s`` of ``r`` (capped at
``Widening.most``).  Two people may sit together when each accepts the other (the
narrower window decides), so a newcomer is not pulled into a mismatch by someone
who has waited long.  A person without a rating (anonymous, or new to this player
count) accepts anyone and is accepted by anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    """One person in a queue, as the matcher needs them."""

    ticket: str
    created_ms: int
    """When they joined the queue (Unix ms): the older, the sooner they are seated."""
    rating: float | None
    """Their rating for this player count, None when they have none."""
    bots_after: int | None
    """Seconds after which they accept bots in free seats; None: never."""


@dataclass(frozen=True, slots=True)
class Widening:
    """How far apart in rating two people may be, growing with the time they wait."""

    base: float = 3.0
    """The window at once, in the ratings' points either side of one's own.  The
    defaults are for the project's rating model (app/ratings: OpenSkill's ``mu``, 25
    for a new player; the bots' anchors 15, 25 and 31), where 3 points is about the
    step from one bot level to the next halved."""
    per_second: float = 0.2
    """How much it grows each second of waiting (3 -> 9 after half a minute)."""
    most: float = 15.0
    """It grows no further than this (after a minute: anyone but the far extremes)."""

    def window(self, person: Waiting, now_ms: int) -> float:
        waited = max(0.0, (now_ms - person.created_ms) / 1000)
        return min(self.most, self.base + self.per_second * waited)


@dataclass(frozen=True, slots=True)
class Table:
    """A table to seat: its people in seat order (the longest waiting first), and how
    many seats go to bots."""

    people: tuple[Waiting, ...]
    bots: int


def accept_each_other(a: Waiting, b: Waiting, now_ms: int, widening: Widening) -> bool:
    if a.rating is None or b.rating is None:
        return True
    gap = abs(a.rating - b.rating)
    return gap <= min(widening.window(a, now_ms), widening.window(b, now_ms))


def bots_welcome(person: Waiting, now_ms: int) -> bool:
    """Whether this person has waited as long as they chose before bots may fill in."""
    return person.bots_after is not None and now_ms - person.created_ms >= person.bots_after * 1000


def _gather(
    anchor: Waiting,
    others: Sequence[Waiting],
    seats: int,
    now_ms: int,
    widening: Widening,
) -> list[Waiting]:
    table = [anchor]
    for person in others:
        if len(table) == seats:
            break
        if person is not anchor and all(
            accept_each_other(person, p, now_ms, widening) for p in table
        ):
            table.append(person)
    return table


def form_table(
    queue: Sequence[Waiting], seats: int, now_ms: int, widening: Widening | None = None
) -> Table | None:
    """One table out of ``queue`` for ``seats`` players, or None when none can form yet.

    ``queue`` holds the people waiting for this player count and pace; a table of
    people only is preferred to one with bots (see the module's docstring)."""
    widening = widening or Widening()
    waiting = sorted(queue, key=lambda p: (p.created_ms, p.ticket))
    for anchor in waiting:
        table = _gather(anchor, waiting, seats, now_ms, widening)
        if len(table) == seats:
            return Table(tuple(table), 0)
    ready = [p for p in waiting if bots_welcome(p, now_ms)]
    if ready:
        table = _gather(ready[0], ready, seats, now_ms, widening)
        return Table(tuple(table), seats - len(table))
    return None
