"""How an event moves on, as pure functions of what is stored (``Snapshot``).

- ``first_tables``: the tables of the first stage, when the event starts.  Swiss:
  round 1 seated by the event's draw.  Duplicate: every table's board 1, the tables
  drawn once (seating.duplicate_tables).
- ``advance``: called in the transaction that stored a table's results.  Swiss: when
  the round's last table is done, the next round is seated by the standings (or the
  event finishes after its last round); with rounds at set times, not before the
  next round's time (``round_due``; the loop seats it when it comes).  Duplicate:
  the table that finished a board goes on to its next board at once (tables do not
  wait for each other); the event finishes when every table has played every board.
- ``complete_boards``: the boards every table has played, the only ones whose
  results (and records) anyone may see.
"""

from __future__ import annotations

from .arena import arena_step
from .field import FINISHED, active
from .seating import (
    Table,
    board_seating,
    draw,
    duplicate_tables,
    meetings,
    swiss_tables,
)
from .standings import swiss_standings
from .store import EventTable, Next, Snapshot


def _new(stage: int, tables: list[Table]) -> list[EventTable]:
    return [EventTable(stage, i + 1, seats, None, None) for i, seats in enumerate(tables)]


def first_tables(snap: Snapshot) -> list[EventTable]:
    plan, people = snap.event.plan, active(snap)
    if plan.format == "arena":
        started = snap.event.started_ms or snap.event.created_ms
        return arena_step(snap, started).tables
    if plan.format == "swiss":
        return _new(1, swiss_tables(draw(people, snap.event.seed), {}, plan.players))
    return _new(1, duplicate_tables(people, snap.event.seed, plan.players))


def complete_boards(snap: Snapshot) -> set[int]:
    """Duplicate: the boards every table has played (Swiss: every finished round)."""
    firsts = [t for t in snap.tables if t.stage == 1]
    done: dict[int, int] = {}
    for t in snap.tables:
        if t.done_ms is not None:
            done[t.stage] = done.get(t.stage, 0) + 1
    return {stage for stage, n in done.items() if firsts and n == len(firsts)}


def swiss_order(snap: Snapshot) -> list[str]:
    """The active entrants by the standings so far, the draw breaking level scores."""
    people = active(snap)
    drawn = {p: i for i, p in enumerate(draw(people, snap.event.seed))}
    place = {row.entrant: row.place for row in swiss_standings(people, snap.results)}
    return sorted(people, key=lambda p: (place[p], drawn[p]))


def round_due(snap: Snapshot, stage: int) -> int | None:
    """Swiss at set times: when round ``stage`` is to start (Unix ms), the event's
    start plus ``stage - 1`` times ``round_minutes``; None without set times."""
    minutes, started = snap.event.plan.round_minutes, snap.event.started_ms
    if minutes is None or started is None:
        return None
    return started + (stage - 1) * minutes * 60_000


def advance(snap: Snapshot, now_ms: int | None = None) -> Next:
    """What follows a finished table (an arena, and a Swiss event with rounds at set
    times, need the time: ``now_ms``; without it such a round waits)."""
    event, plan = snap.event, snap.event.plan
    if plan.format == "arena":
        return arena_step(snap, now_ms if now_ms is not None else 0)
    if plan.format == "swiss":
        current = [t for t in snap.tables if t.stage == event.stage]
        if any(t.done_ms is None for t in current):
            return Next([], event.stage, event.state)
        if event.stage >= plan.rounds or len(active(snap)) < 2:
            return Next([], event.stage, FINISHED)
        due = round_due(snap, event.stage + 1)
        if due is not None and (now_ms is None or now_ms < due):
            return Next([], event.stage, event.state)  # the loop seats it at its time
        met = meetings([t.seats for t in snap.tables])
        tables = swiss_tables(swiss_order(snap), met, plan.players)
        return Next(_new(event.stage + 1, tables), event.stage + 1, event.state)
    made = {(t.stage, t.table_no) for t in snap.tables}
    added: list[EventTable] = []
    for first in (t for t in snap.tables if t.stage == 1):
        played = [
            t.stage for t in snap.tables if t.table_no == first.table_no and t.done_ms is not None
        ]
        upto = max(played, default=0)
        if 0 < upto < plan.boards and (upto + 1, first.table_no) not in made:
            seats = board_seating(first.seats, upto)  # board numbers from 1, rotations from 0
            added.append(EventTable(upto + 1, first.table_no, seats, None, None))
    every = len([t for t in snap.tables if t.stage == 1]) * plan.boards
    finished = sum(t.done_ms is not None for t in snap.tables) == every
    return Next(added, event.stage, FINISHED if finished else event.state)
