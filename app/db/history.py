"""Read-only queries for the history of rooms: their matches, finished deals, and the
rooms a player sat in.  Straight from the tables, without replaying a room: a finished
room's history costs a few indexed reads, not a reload into memory.

Only finished deals come out of here (``deals.scores`` is written by the same
transaction as the play that ended the deal): nothing about a deal in play, not
even its seed, is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from app.review.archive import LIVE, FinishedDeal, RoomHistory, StoredMatch, Waiting
from app.rooms.domain.errors import RoomPurged
from app.rooms.domain.record_types import SeatName, StoredDeal

from .deadlines import MOVE
from .models import DealRow, MatchRow, PurgedRoom, Room, RoomDeadline, Seat, table_of
from .outage import outages_as_unavailable
from .purge import utc
from .repository import RoomRepository
from .seat_reads import seat_name, seats_where

GAMES_LIMIT = 50
"""Rooms a player's "My games" lists at most: every room waiting for this player's
move (up to this many), then the most recently changed."""

_DEADLINES = table_of(RoomDeadline)
"""The correspondence rooms' deadlines (issue 32; written by the rooms, read here): a
``move`` row exists exactly while a room waits for that seat to move."""


async def _room_or_tombstone(s: Any, room_id: str) -> Room | None:
    room = await s.get(Room, room_id)
    if room is None:
        gone = await s.get(PurgedRoom, room_id)
        if gone is not None:
            raise RoomPurged(room_id, gone.finished_at, gone.purged_at)
    found: Room | None = room
    return found


def _seat_rows(rows: Sequence[tuple[Seat, int | None]]) -> list[SeatName]:
    return [seat_name(r, bot_since) for r, bot_since in sorted(rows, key=lambda r: r[0].seat)]


def _match_row(m: MatchRow) -> StoredMatch:
    return {
        "match_no": m.match_no,
        "first_dealer": m.first_dealer,
        "cumulative": list(m.cumulative or []),
        "deals_played": m.deals_played,
        "finished": bool(m.finished),
        "winners": list(m.winners or []),
    }


def _deal_row(d: DealRow) -> FinishedDeal:
    return {
        "match_no": d.match_no,
        "deal_no": d.deal_no,
        "dealer": d.dealer,
        "scores": d.scores,
        "totals": d.totals,
    }


class HistoryReads:
    """What ``app.review.archive.Archive`` reads (its ``HistoryStore``), on the repository's
    database."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    async def room_history(self, room_id: str) -> RoomHistory | None:
        return await room_history(self.repo, room_id)

    async def player_rooms(
        self, player_hashes: Sequence[str], account_id: str | None = None
    ) -> list[tuple[int, RoomHistory]]:
        return await player_rooms(self.repo, player_hashes, account_id)

    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        return await self.repo.deal_record(room_id, match_no, deal_no)


@outages_as_unavailable
async def room_history(repo: RoomRepository, room_id: str) -> RoomHistory | None:
    """Every match and finished deal of a room; None for no such room (RoomPurged for a
    purged one)."""
    async with repo.sessions() as s:
        room = await _room_or_tombstone(s, room_id)
        if room is None:
            return None
        seats = (await s.execute(seats_where(Seat.room_id == room_id))).all()
        matches = (
            await s.scalars(
                select(MatchRow).where(MatchRow.room_id == room_id).order_by(MatchRow.match_no)
            )
        ).all()
        deals = (
            await s.scalars(
                select(DealRow)
                .where(DealRow.room_id == room_id, DealRow.scores.is_not(None))
                .order_by(DealRow.match_no, DealRow.deal_no)
            )
        ).all()
    return RoomHistory(
        room.id,
        room.code,
        room.players,
        dict(room.rules),
        room.status,
        utc(room.updated_at),
        _seat_rows(seats),
        [_match_row(m) for m in matches],
        [_deal_row(d) for d in deals],
    )


@outages_as_unavailable
async def player_rooms(
    repo: RoomRepository, player_hashes: Sequence[str], account_id: str | None = None
) -> list[tuple[int, RoomHistory]]:
    """The rooms these player keys (their hashes) or this account hold a seat in, each
    with the seat held: (seat, history).  First every room waiting for a move of a seat
    held here, the soonest deadline first, then the rest, the most recently changed
    first: a game where it is this player's turn is listed however long ago it
    last changed (issue 32)."""
    if not player_hashes and account_id is None:
        return []
    held_by: ColumnElement[bool] = Seat.player_hash.in_(list(player_hashes))
    if account_id is not None:
        held_by = or_(held_by, Seat.account_id == account_id)
    due = _DEADLINES.c
    async with repo.sessions() as s:
        to_move = (
            await s.execute(
                select(Seat.room_id, Seat.seat)
                .join(_DEADLINES, and_(due.room_id == Seat.room_id, due.seat == Seat.seat))
                .where(held_by, due.kind == MOVE, due.by_bot.is_(False))
                .order_by(due.due_ms, Seat.room_id)
                .limit(GAMES_LIMIT)
            )
        ).all()
        rest = (
            await s.execute(
                select(Seat.room_id, Seat.seat)
                .join(Room, Room.id == Seat.room_id)
                .where(held_by)
                .order_by(Room.updated_at.desc(), Seat.room_id)
                .limit(GAMES_LIMIT)
            )
        ).all()
        held = list(dict.fromkeys([(r[0], r[1]) for r in to_move] + [(r[0], r[1]) for r in rest]))
        if not held:
            return []
        ids = list(dict.fromkeys(room_id for room_id, _ in held))[:GAMES_LIMIT]
        rooms = {r.id: r for r in (await s.scalars(select(Room).where(Room.id.in_(ids)))).all()}
        waiting = {
            r[0]: Waiting(r[1], int(r[2]))
            for r in (
                await s.execute(
                    select(due.room_id, due.seat, due.due_ms).where(
                        due.room_id.in_(ids), due.kind == MOVE, due.by_bot.is_(False)
                    )
                )
            ).all()
        }
        seats = (await s.execute(seats_where(Seat.room_id.in_(ids)))).all()
        matches = (
            await s.scalars(
                select(MatchRow).where(MatchRow.room_id.in_(ids)).order_by(MatchRow.match_no)
            )
        ).all()
        deals = (
            await s.scalars(
                select(DealRow)
                .where(DealRow.room_id.in_(ids), DealRow.scores.is_not(None))
                .order_by(DealRow.match_no, DealRow.deal_no)
            )
        ).all()
    out: list[tuple[int, RoomHistory]] = []
    seen: set[str] = set()
    for room_id, seat in held:
        if room_id in seen or room_id not in rooms:
            continue  # two seats of one room (two keys of one browser): the first
        seen.add(room_id)
        room = rooms[room_id]
        out.append(
            (
                seat,
                RoomHistory(
                    room.id,
                    room.code,
                    room.players,
                    dict(room.rules),
                    room.status,
                    utc(room.updated_at),
                    _seat_rows([x for x in seats if x[0].room_id == room_id]),
                    [_match_row(m) for m in matches if m.room_id == room_id],
                    [_deal_row(d) for d in deals if d.room_id == room_id],
                    pace=str((room.options or {}).get("pace") or LIVE),
                    waiting=waiting.get(room_id),
                ),
            )
        )
    return out
