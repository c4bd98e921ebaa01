"""Claiming a tournament's table to make its room, and recording the room, each one
transaction (app/db/tournaments.py runs them through the repository's writer): a
table is claimed by a conditional UPDATE that only one process wins while no other
claim is live, and its room is recorded once."""

from __future__ import annotations

import json

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Connection

from app.tournaments.store import EventTable, TableToMake

from .tournament_writes import BOARDS, ENTRIES, EVENTS, TABLES, event_of


def claim_tables(conn: Connection, now_ms: int, until_ms: int, limit: int) -> list[TableToMake]:
    rows = conn.execute(
        select(TABLES)
        .join(EVENTS, EVENTS.c.id == TABLES.c.tournament_id)
        .where(
            EVENTS.c.state == "running",
            TABLES.c.room_id.is_(None),
            or_(TABLES.c.claim_until.is_(None), TABLES.c.claim_until < now_ms),
        )
        .order_by(TABLES.c.created_ms)
        .limit(limit)
    ).all()
    claimed: list[TableToMake] = []
    for r in rows:
        key = (
            (TABLES.c.tournament_id == r.tournament_id)
            & (TABLES.c.stage == r.stage)
            & (TABLES.c.table_no == r.table_no)
            & TABLES.c.room_id.is_(None)
            & or_(TABLES.c.claim_until.is_(None), TABLES.c.claim_until < now_ms)
        )
        if conn.execute(update(TABLES).where(key).values(claim_until=until_ms)).rowcount != 1:
            continue
        event = event_of(conn.execute(select(EVENTS).where(EVENTS.c.id == r.tournament_id)).one())
        seats: list[str | None] = json.loads(r.seats)
        people = [s for s in seats if s is not None]
        names = {
            e.account_id: e.username
            for e in conn.execute(
                select(ENTRIES.c.account_id, ENTRIES.c.username).where(
                    ENTRIES.c.tournament_id == r.tournament_id, ENTRIES.c.account_id.in_(people)
                )
            )
        }
        board_seed = None
        if event.plan.format == "duplicate":
            board_seed = conn.execute(
                select(BOARDS.c.seed).where(
                    BOARDS.c.tournament_id == r.tournament_id, BOARDS.c.board == r.stage
                )
            ).scalar_one()
        table = EventTable(r.stage, r.table_no, seats, None, None)
        claimed.append(TableToMake(event, table, names, board_seed))
    return claimed


def set_room(conn: Connection, tournament_id: str, stage: int, table_no: int, room_id: str) -> bool:
    return (
        conn.execute(
            update(TABLES)
            .where(
                TABLES.c.tournament_id == tournament_id,
                TABLES.c.stage == stage,
                TABLES.c.table_no == table_no,
                TABLES.c.room_id.is_(None),
            )
            .values(room_id=room_id, claim_until=None)
        ).rowcount
        == 1
    )
