"""app/tournaments/progress.py: how an event moves on.  Whole events are played out
table by table in a random order (what a store would do with each ``Next``), and
every step is checked: Swiss seats round r+1 only once round r is done and finishes
after its last round; duplicate sends each finished table on to its next board,
once, and finishes when every table has played every board."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.plan import EventPlan
from app.tournaments.progress import (
    FINISHED,
    active,
    advance,
    complete_boards,
    first_tables,
    round_due,
)
from app.tournaments.seating import board_seating, meetings
from app.tournaments.standings import Result
from app.tournaments.store import Entrant, Event, EventTable, Next, Snapshot


def snapshot(plan: EventPlan, people: int, withdrawn: int = 0) -> Snapshot:
    """A running event at stage 1 with no tables yet; the last ``withdrawn`` left."""
    event = Event(
        "ev", "Cup", None, "org", "Org", plan, "seed", "running", 1, people, 0, None, 0, None
    )
    entrants = [
        Entrant(f"p{i:02d}", f"user{i}", i, 5 if i >= people - withdrawn else None)
        for i in range(people)
    ]
    return Snapshot(event, entrants, [], [], [])


def finish(snap: Snapshot, table: EventTable, rnd: random.Random) -> Snapshot:
    """The snapshot after ``table`` is done (a total for every seat, bots' too)."""
    done = dataclasses.replace(table, done_ms=1)
    tables = [done if t is table else t for t in snap.tables]
    results = [
        Result(table.stage, table.table_no, i, who, rnd.randint(0, 9))
        for i, who in enumerate(table.seats)
    ]
    return dataclasses.replace(snap, tables=tables, results=snap.results + results)


def apply(snap: Snapshot, step) -> Snapshot:
    event = dataclasses.replace(snap.event, stage=step.stage, state=step.state)
    return dataclasses.replace(snap, event=event, tables=snap.tables + step.tables)


def people_of(tables: list[EventTable]) -> list[str]:
    return sorted(p for t in tables for p in t.seats if p is not None)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 11),
    st.integers(2, 4),
    st.integers(1, 4),
    st.integers(0, 1),
    st.randoms(use_true_random=False),
)
def test_swiss_seats_a_round_only_when_the_last_one_is_done(
    n, size, rounds, withdrawn, rnd
) -> None:
    """Tables finish in a random order.  Until a round's last table is done nothing
    changes; then the next round seats every active entrant (numbered tables, the new
    stage), and after the last round the event finishes with no more tables."""
    snap = snapshot(EventPlan("swiss", size, rounds=rounds), n, withdrawn)
    people = active(snap)
    snap = dataclasses.replace(snap, tables=first_tables(snap))
    assert people_of(snap.tables) == people
    for stage in range(1, rounds + 1):
        current = [t for t in snap.tables if t.stage == stage]
        assert [t.table_no for t in current] == list(range(1, len(current) + 1))
        assert people_of(current) == people
        rnd.shuffle(current)
        for i, table in enumerate(current):
            snap = finish(snap, table, rnd)
            step = advance(snap)
            if i < len(current) - 1:
                assert (step.tables, step.stage, step.state) == ([], stage, "running")
            elif stage < rounds and len(people) >= 2:
                assert {t.stage for t in step.tables} == {stage + 1}
                assert step.stage == stage + 1 and step.state == "running"
            else:
                assert (step.tables, step.state) == ([], FINISHED)
                return
            snap = apply(snap, step)
    raise AssertionError("the event did not finish after its last round")


def test_swiss_round_two_avoids_round_one_pairs_when_it_can() -> None:
    """Four people at tables of two: round 2 meets nobody from round 1 (two of the
    three possible rounds have no repeat, so the field allows it)."""
    rnd = random.Random(7)
    snap = snapshot(EventPlan("swiss", 2, rounds=2), 4)
    snap = dataclasses.replace(snap, tables=first_tables(snap))
    for table in list(snap.tables):
        snap = finish(snap, table, rnd)
    nxt = advance(snap).tables
    before = meetings([t.seats for t in snap.tables])
    assert not set(meetings([t.seats for t in nxt])) & set(before)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), st.integers(2, 4), st.integers(1, 4), st.randoms(use_true_random=False))
def test_duplicate_moves_each_table_on_alone_and_finishes_at_the_end(n, size, boards, rnd) -> None:
    """Tables play at their own pace.  Finishing table t's board b adds exactly
    (b + 1, t), seated by board_seating, unless b was the last board; a second
    advance adds nothing; no (board, table) is made twice; complete_boards is the
    boards every table has done; the event finishes with the very last table."""
    snap = snapshot(EventPlan("duplicate", size, boards=boards), n)
    snap = dataclasses.replace(snap, tables=first_tables(snap))
    firsts = {t.table_no: t for t in snap.tables}
    assert people_of(snap.tables) == active(snap)
    total = len(firsts) * boards
    for played in range(1, total + 1):
        table = rnd.choice([t for t in snap.tables if t.done_ms is None])
        snap = finish(snap, table, rnd)
        step = advance(snap)
        if table.stage < boards:
            expected = board_seating(firsts[table.table_no].seats, table.stage)
            assert [(t.stage, t.table_no, t.seats) for t in step.tables] == [
                (table.stage + 1, table.table_no, expected)
            ]
        else:
            assert step.tables == []
        assert step.state == (FINISHED if played == total else "running")
        snap = apply(snap, step)
        assert advance(snap).tables == []
        keys = [(t.stage, t.table_no) for t in snap.tables]
        assert len(keys) == len(set(keys))
        done = {(t.stage, t.table_no) for t in snap.tables if t.done_ms is not None}
        assert complete_boards(snap) == {
            b for b in range(1, boards + 1) if all((b, no) in done for no in firsts)
        }
    assert len(snap.tables) == total


def test_swiss_rounds_at_set_times_wait_for_their_time_and_not_longer() -> None:
    """Rounds 10 minutes apart from the start (0): round 2 is seated at 10 minutes,
    not a millisecond earlier, however early round 1 finished; round 3, whose time
    (20 minutes) came while round 2 still played, is seated as its last table ends."""
    rnd = random.Random(3)
    snap = snapshot(EventPlan("swiss", 2, rounds=3, round_minutes=10), 4)
    assert [round_due(snap, r) for r in (1, 2, 3)] == [0, 600_000, 1_200_000]
    snap = dataclasses.replace(snap, tables=first_tables(snap))
    for table in list(snap.tables):
        snap = finish(snap, table, rnd)
    assert advance(snap, now_ms=599_999) == (Next([], 1, "running"))
    assert advance(snap).tables == [], "without the time, a round at a set time waits"
    step = advance(snap, now_ms=600_000)
    assert step.stage == 2 and {t.stage for t in step.tables} == {2}
    snap = apply(snap, step)
    for table in [t for t in snap.tables if t.stage == 2]:
        snap = finish(snap, table, rnd)
    step = advance(snap, now_ms=1_500_000)
    assert step.stage == 3 and len(step.tables) == 2
    snap = apply(snap, step)
    for table in [t for t in snap.tables if t.stage == 3]:
        snap = finish(snap, table, rnd)
    assert advance(snap, now_ms=1_500_001).state == FINISHED


def test_without_set_times_no_round_has_a_time() -> None:
    snap = snapshot(EventPlan("swiss", 2, rounds=3), 4)
    assert round_due(snap, 2) is None


def test_first_tables_leave_out_the_withdrawn() -> None:
    """Only active entrants are seated when the event starts, in either format."""
    for plan in (EventPlan("swiss", 3), EventPlan("duplicate", 3)):
        snap = snapshot(plan, 7, withdrawn=2)
        tables = first_tables(snap)
        assert people_of(tables) == [f"p{i:02d}" for i in range(5)]
        assert {t.stage for t in tables} == {1}
        assert all(t.room_id is None and t.done_ms is None for t in tables)


def test_complete_boards_is_empty_before_any_table() -> None:
    """No tables: no board is complete (not every board vacuously)."""
    assert complete_boards(snapshot(EventPlan("duplicate", 2), 4)) == set()
