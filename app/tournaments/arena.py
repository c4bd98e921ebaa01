"""An arena: for a set time, whoever finishes a table is seated again with others
waiting, closest in score (pure).

The event ends ``minutes`` after its start (or when its organiser ends it): no table
is seated after that, and the event finishes when its last table does.  Scores are
table points, as in a Swiss round (scoring.beaten): a table of n gives out n(n-1)/2
points, so the more one plays and wins, the higher one stands; the tiebreak is the
points difference.

Seating: the people waiting (active entrants at no unfinished table), in the order of
the standings (the event's draw breaking level scores), make tables of the event's
size from the top, so each sits with those closest in score.  Fewer than a table's
worth wait for the next table to finish; when no table is left to finish (nobody
would come), they are seated with bots in the other seats.  All of an arena's tables
are stage 1, numbered in the order they were seated.
"""

from __future__ import annotations

from .field import FINISHED, active
from .seating import draw
from .standings import swiss_standings
from .store import EventTable, Next, Snapshot


def arena_end(snap: Snapshot) -> int | None:
    """When the arena stops seating (Unix ms): its start plus its minutes, or earlier
    when its organiser ended it; None before its start."""
    event = snap.event
    if event.ends_ms is not None:
        return event.ends_ms
    return None if event.started_ms is None else event.started_ms + event.plan.minutes * 60_000


def waiting(snap: Snapshot) -> list[str]:
    """Active entrants not seated at an unfinished table, best placed first."""
    busy = {p for t in snap.tables if t.done_ms is None for p in t.seats if p is not None}
    people = active(snap)
    drawn = {p: i for i, p in enumerate(draw(people, snap.event.seed))}
    place = {row.entrant: row.place for row in swiss_standings(people, snap.results)}
    return sorted((p for p in people if p not in busy), key=lambda p: (place[p], drawn[p]))


def arena_step(snap: Snapshot, now_ms: int) -> Next:
    """The tables to seat now, and whether the arena is over."""
    event, size = snap.event, snap.event.plan.players
    end = arena_end(snap)
    playing = [t for t in snap.tables if t.done_ms is None]
    if end is not None and now_ms >= end:
        return Next([], event.stage, event.state if playing else FINISHED)
    queue = waiting(snap)
    groups = [queue[i : i + size] for i in range(0, len(queue), size)]
    if groups and len(groups[-1]) < size and (playing or len(groups) > 1):
        groups.pop()  # they wait for a table to finish
    number = max((t.table_no for t in snap.tables), default=0)
    tables = [
        EventTable(1, number + i + 1, [*g, *([None] * (size - len(g)))], None, None)
        for i, g in enumerate(groups)
    ]
    return Next(tables, event.stage, event.state)
