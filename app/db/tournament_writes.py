"""The tournaments' writes, each one transaction on a ``Connection`` (app/db/
tournaments.py runs them through the repository's writer).  Each write that moves an
event on is guarded so that it happens once however many processes try: the
event's state or a table's ``done_ms`` changes by a conditional UPDATE that only one
transaction wins, and rows are added under their primary keys."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from app.tournaments.errors import TournamentCode, TournamentRefused
from app.tournaments.plan import EventPlan
from app.tournaments.standings import Result
from app.tournaments.store import (
    Advance,
    Board,
    Entrant,
    Event,
    EventTable,
    NewEvent,
    Seat,
    Snapshot,
)

from .base import table_of
from .club_writes import lock_account
from .tournament_models import (
    TournamentBoardRow,
    TournamentEntryRow,
    TournamentResultRow,
    TournamentRow,
    TournamentTableRow,
)

EVENTS = table_of(TournamentRow)
ENTRIES = table_of(TournamentEntryRow)
BOARDS = table_of(TournamentBoardRow)
TABLES = table_of(TournamentTableRow)
RESULTS = table_of(TournamentResultRow)
UNFINISHED = ("registering", "running")


def event_of(row: Row[object]) -> Event:
    m = row._mapping
    return Event(
        id=m["id"],
        name=m["name"],
        club_id=m["club_id"],
        organiser_id=m["organiser_id"],
        organiser_name=m["organiser_name"],
        plan=EventPlan.from_json(json.loads(m["plan"])),
        seed=m["seed"],
        state=m["state"],
        stage=m["stage"],
        entrants=m["entrants"],
        created_ms=m["created_ms"],
        starts_ms=m["starts_ms"],
        started_ms=m["started_ms"],
        finished_ms=m["finished_ms"],
        ends_ms=m["ends_ms"],
    )


def snapshot(conn: Connection, tournament_id: str) -> Snapshot | None:
    row = conn.execute(select(EVENTS).where(EVENTS.c.id == tournament_id)).first()
    if row is None:
        return None
    entrants = [
        Entrant(r.account_id, r.username, r.registered_ms, r.withdrawn_ms)
        for r in conn.execute(
            select(ENTRIES)
            .where(ENTRIES.c.tournament_id == tournament_id)
            .order_by(ENTRIES.c.registered_ms, ENTRIES.c.account_id)
        )
    ]
    boards = [
        Board(r.board, r.seed, r.seed_hash)
        for r in conn.execute(
            select(BOARDS).where(BOARDS.c.tournament_id == tournament_id).order_by(BOARDS.c.board)
        )
    ]
    tables = [
        EventTable(r.stage, r.table_no, json.loads(r.seats), r.room_id, r.done_ms)
        for r in conn.execute(
            select(TABLES)
            .where(TABLES.c.tournament_id == tournament_id)
            .order_by(TABLES.c.stage, TABLES.c.table_no)
        )
    ]
    results = [
        Result(r.stage, r.table_no, r.seat, r.account_id, r.total, r.left)
        for r in conn.execute(
            select(RESULTS)
            .where(RESULTS.c.tournament_id == tournament_id)
            .order_by(RESULTS.c.stage, RESULTS.c.table_no, RESULTS.c.seat)
        )
    ]
    return Snapshot(event_of(row), entrants, boards, tables, results)


def create(conn: Connection, event: NewEvent, open_max: int) -> None:
    mine = conn.execute(
        select(func.count()).where(
            EVENTS.c.organiser_id == event.organiser_id, EVENTS.c.state.in_(UNFINISHED)
        )
    ).scalar()
    if int(mine or 0) >= open_max:
        raise TournamentRefused(
            TournamentCode.TOO_MANY_TOURNAMENTS,
            f"an account organises at most {open_max} events not yet finished",
        )
    conn.execute(
        insert(EVENTS).values(
            id=event.id,
            name=event.name,
            format=event.plan.format,
            club_id=event.club_id,
            organiser_id=event.organiser_id,
            organiser_name=event.organiser_name,
            players=event.plan.players,
            plan=json.dumps(event.plan.to_json()),
            seed=event.seed,
            state="registering",
            stage=0,
            entrants=0,
            created_ms=event.created_ms,
            starts_ms=event.starts_ms,
        )
    )
    for i, (seed, seed_hash) in enumerate(event.boards):
        conn.execute(
            insert(BOARDS).values(
                tournament_id=event.id, board=i + 1, seed=seed, seed_hash=seed_hash
            )
        )


def _state(conn: Connection, tournament_id: str) -> str:
    found = conn.execute(select(EVENTS.c.state).where(EVENTS.c.id == tournament_id)).scalar()
    if found is None:
        raise TournamentRefused(TournamentCode.NO_SUCH_TOURNAMENT, "no such tournament")
    return str(found)


def register(
    conn: Connection,
    tournament_id: str,
    account_id: str,
    username: str,
    now_ms: int,
    late: bool,
    entries_max: int,
) -> None:
    states = ("registering", "running") if late else ("registering",)
    if _state(conn, tournament_id) not in states:
        raise TournamentRefused(
            TournamentCode.NOT_REGISTERING, "this event takes no more registrations"
        )
    found = conn.execute(
        select(ENTRIES.c.withdrawn_ms).where(
            ENTRIES.c.tournament_id == tournament_id, ENTRIES.c.account_id == account_id
        )
    ).first()
    if found is not None:
        raise TournamentRefused(
            TournamentCode.ALREADY_REGISTERED,
            "you are registered already"
            if found.withdrawn_ms is None
            else "you withdrew from this event after it started",
        )
    lock_account(conn, account_id)  # one account's entries counted one after another
    entered = conn.execute(
        select(func.count())
        .select_from(ENTRIES.join(EVENTS, EVENTS.c.id == ENTRIES.c.tournament_id))
        .where(
            ENTRIES.c.account_id == account_id,
            ENTRIES.c.withdrawn_ms.is_(None),
            EVENTS.c.state.in_(UNFINISHED),
        )
    ).scalar()
    if int(entered or 0) >= entries_max:
        raise TournamentRefused(
            TournamentCode.TOO_MANY_ENTRIES,
            f"an account is entered in at most {entries_max} events not yet finished",
        )
    cap = EventPlan.from_json(
        json.loads(
            conn.execute(select(EVENTS.c.plan).where(EVENTS.c.id == tournament_id)).scalar_one()
        )
    ).cap
    took = conn.execute(
        update(EVENTS)
        .where(EVENTS.c.id == tournament_id, EVENTS.c.entrants < cap, EVENTS.c.state.in_(states))
        .values(entrants=EVENTS.c.entrants + 1)
    ).rowcount
    if took != 1:
        raise TournamentRefused(TournamentCode.TOURNAMENT_FULL, f"the event takes {cap} entrants")
    conn.execute(
        insert(ENTRIES).values(
            tournament_id=tournament_id,
            account_id=account_id,
            username=username,
            registered_ms=now_ms,
        )
    )


def withdraw(conn: Connection, tournament_id: str, account_id: str, now_ms: int) -> None:
    state = _state(conn, tournament_id)
    mine = (ENTRIES.c.tournament_id == tournament_id) & (ENTRIES.c.account_id == account_id)
    if state == "registering":
        gone = conn.execute(delete(ENTRIES).where(mine)).rowcount
    elif state == "running":
        gone = conn.execute(
            update(ENTRIES)
            .where(mine, ENTRIES.c.withdrawn_ms.is_(None))
            .values(withdrawn_ms=now_ms)
        ).rowcount
    else:
        raise TournamentRefused(TournamentCode.NOT_REGISTERING, "this event is over")
    if gone != 1:
        raise TournamentRefused(TournamentCode.NOT_REGISTERED, "you are not registered")
    conn.execute(
        update(EVENTS).where(EVENTS.c.id == tournament_id).values(entrants=EVENTS.c.entrants - 1)
    )


def _add_tables(
    conn: Connection, tournament_id: str, tables: Sequence[EventTable], now_ms: int
) -> None:
    for t in tables:
        conn.execute(
            insert(TABLES).values(
                tournament_id=tournament_id,
                stage=t.stage,
                table_no=t.table_no,
                seats=json.dumps(t.seats),
                created_ms=now_ms,
            )
        )


def start(conn: Connection, tournament_id: str, now_ms: int, seat: Seat) -> bool:
    won = conn.execute(
        update(EVENTS)
        .where(EVENTS.c.id == tournament_id, EVENTS.c.state == "registering")
        .values(state="running", stage=1, started_ms=now_ms)
    ).rowcount
    if won != 1:
        return False
    plan = json.loads(
        conn.execute(select(EVENTS.c.plan).where(EVENTS.c.id == tournament_id)).scalar_one()
    )
    if plan["format"] == "arena":
        ends = now_ms + int(plan["minutes"]) * 60_000
        conn.execute(update(EVENTS).where(EVENTS.c.id == tournament_id).values(ends_ms=ends))
    snap = snapshot(conn, tournament_id)
    assert snap is not None
    _add_tables(conn, tournament_id, seat(snap), now_ms)
    return True


def table_done(
    conn: Connection,
    room_id: str,
    match_no: int,
    totals: Sequence[tuple[int, int, bool]],
    now_ms: int,
    advance: Advance,
) -> str | None:
    row = conn.execute(select(TABLES).where(TABLES.c.room_id == room_id)).first()
    if row is None or match_no != 1:
        return None
    key = (
        (TABLES.c.tournament_id == row.tournament_id)
        & (TABLES.c.stage == row.stage)
        & (TABLES.c.table_no == row.table_no)
    )
    if (
        conn.execute(
            update(TABLES).where(key, TABLES.c.done_ms.is_(None)).values(done_ms=now_ms)
        ).rowcount
        != 1
    ):
        return None
    seats: list[str | None] = json.loads(row.seats)
    for seat, total, left in totals:
        conn.execute(
            insert(RESULTS).values(
                tournament_id=row.tournament_id,
                stage=row.stage,
                table_no=row.table_no,
                seat=seat,
                account_id=seats[seat] if seat < len(seats) else None,
                total=total,
                left=left,
            )
        )
    _follow(conn, row.tournament_id, now_ms, advance)
    return str(row.tournament_id)


def _follow(conn: Connection, tournament_id: str, now_ms: int, advance: Advance) -> bool:
    """Store what ``advance`` says follows now: new tables, the stage and the state.

    The event's row is locked first (PostgreSQL; SQLite has one writer): two tables
    of a round finishing at once in two processes each read the other's as done only
    after it committed, so that exactly one of them seats the next round."""
    conn.execute(select(EVENTS.c.id).where(EVENTS.c.id == tournament_id).with_for_update())
    snap = snapshot(conn, tournament_id)
    assert snap is not None
    nxt = advance(snap)
    _add_tables(conn, tournament_id, nxt.tables, now_ms)
    changed = (nxt.stage, nxt.state) != (snap.event.stage, snap.event.state)
    if changed:
        conn.execute(
            update(EVENTS)
            .where(EVENTS.c.id == tournament_id)
            .values(
                stage=nxt.stage,
                state=nxt.state,
                finished_ms=now_ms if nxt.state == "finished" else None,
            )
        )
    return changed or bool(nxt.tables)


def step(conn: Connection, tournament_id: str, now_ms: int, advance: Advance) -> bool:
    """A running event's next step outside a table's end (an arena's newcomer, its
    time running out); True when it changed anything."""
    if _state(conn, tournament_id) != "running":
        return False
    return _follow(conn, tournament_id, now_ms, advance)


def end_arena(conn: Connection, tournament_id: str, now_ms: int) -> bool:
    return (
        conn.execute(
            update(EVENTS)
            .where(
                EVENTS.c.id == tournament_id,
                EVENTS.c.state == "running",
                EVENTS.c.format == "arena",
                EVENTS.c.ends_ms > now_ms,
            )
            .values(ends_ms=now_ms)
        ).rowcount
        == 1
    )


def cancel(conn: Connection, tournament_id: str, now_ms: int) -> bool:
    return (
        conn.execute(
            update(EVENTS)
            .where(EVENTS.c.id == tournament_id, EVENTS.c.state == "registering")
            .values(state="cancelled", finished_ms=now_ms)
        ).rowcount
        == 1
    )
