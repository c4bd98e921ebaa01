"""Every room in the database for the admin page (GET /api/admin/rooms): playing,
waiting, finished, closed, whether or not a process holds it; newest activity
first, a page at a time, found by id, code or a player's name.

Read from the tables as they are, without replaying a room: the status, seq and
last change are columns of ``rooms``; the names are ``seats``; the match and deal
numbers the latest rows of ``matches`` and ``deals``; an operator's close is its
``close`` event.  A search is a bound parameter with LIKE's wildcards escaped
(``autoescape``), so a name with ``%`` or ``_`` in it matches only itself.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, or_, select

from app.core.json import JsonObject
from app.rooms.domain.events import CLOSE
from app.rooms.index_types import MAX_LIMIT, IndexLine, IndexPage, RoomQuery, StoredSeat
from app.wire.view import ClosedView

from .models import DealRow, Event, MatchRow, Room, Seat
from .outage import outages_as_unavailable
from .purge import utc
from .seat_reads import seat_name, seats_where
from .store_base import StoreBase


def _closed() -> ColumnElement[bool]:
    return exists().where(Event.room_id == Room.id, Event.kind == CLOSE)


def _filters(query: RoomQuery) -> list[ColumnElement[bool]]:
    out: list[ColumnElement[bool]] = []
    if query.status == "closed":
        out.append(_closed())
    elif query.status == "finished":
        out.append(and_(Room.status == "finished", ~_closed()))
    elif query.status is not None:
        out.append(Room.status == query.status)
    q = query.q.strip()
    if q:
        named = exists().where(Seat.room_id == Room.id, Seat.name.icontains(q, autoescape=True))
        out.append(
            or_(
                Room.id.startswith(q.lower(), autoescape=True),
                Room.code.startswith(q.upper(), autoescape=True),
                named,
            )
        )
    return out


def _numbers() -> tuple[Any, Any]:
    """The latest match's number and its latest deal's, as scalar subqueries."""
    match_no = (
        select(func.max(MatchRow.match_no)).where(MatchRow.room_id == Room.id).scalar_subquery()
    )
    deal_no = (
        select(DealRow.deal_no)
        .where(DealRow.room_id == Room.id)
        .order_by(DealRow.match_no.desc(), DealRow.deal_no.desc())
        .limit(1)
        .scalar_subquery()
    )
    return match_no, deal_no


@outages_as_unavailable
async def admin_rooms(store: StoreBase, query: RoomQuery) -> IndexPage:
    """One page of the rooms matching ``query`` (a ``limit`` past MAX_LIMIT is cut to
    it), with how many match in all."""
    limit = max(1, min(query.limit, MAX_LIMIT))
    offset = max(0, query.offset)
    where = _filters(query)
    match_no, deal_no = _numbers()
    stmt = (
        select(
            Room.id,
            Room.code,
            Room.status,
            Room.players,
            Room.seq,
            Room.created_at,
            Room.updated_at,
            match_no,
            deal_no,
        )
        .where(*where)
        .order_by(Room.updated_at.desc(), Room.id)
        .limit(limit)
        .offset(offset)
    )
    async with store.sessions() as s:
        total = int(await s.scalar(select(func.count()).select_from(Room).where(*where)) or 0)
        rows = (await s.execute(stmt)).all()
        ids = [r[0] for r in rows]
        seats: dict[str, list[StoredSeat]] = {i: [] for i in ids}
        closes: dict[str, JsonObject] = {}
        if ids:
            for row, bot_since in (
                await s.execute(
                    seats_where(Seat.room_id.in_(ids)).order_by(Seat.room_id, Seat.seat)
                )
            ).all():
                seats[row.room_id].append(seat_name(row, bot_since))
            for room_id, data in (
                await s.execute(
                    select(Event.room_id, Event.data).where(
                        Event.room_id.in_(ids), Event.kind == CLOSE
                    )
                )
            ).all():
                closes[room_id] = dict(data or {})
    lines = [_line(r, seats[r[0]], closes.get(r[0])) for r in rows]
    after = offset + len(lines)
    return {
        "rooms": lines,
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_offset": after if after < total else None,
    }


def _closed_view(close: JsonObject) -> ClosedView:
    """A close event's data as the index shows it (as the event codec reads it)."""
    at = close.get("at")
    return {"reason": str(close.get("reason", "")), "at": str(at) if at is not None else None}


def _line(r: Any, seats: list[StoredSeat], close: JsonObject | None) -> IndexLine:
    room_id, code, status, players, seq, created, updated, match_no, deal_no = r
    by_seat = {s["seat"]: s for s in seats}
    return {
        "room_id": room_id,
        "code": code,
        "status": "closed" if close is not None else status,
        "players": players,
        "seats": [by_seat.get(i, {"seat": i, "name": None, "bot": False}) for i in range(players)],
        "match_no": int(match_no or 0),
        "deal_no": int(deal_no or 0),
        "seq": seq,
        "created_at": utc(created).isoformat(),
        "updated_at": utc(updated).isoformat(),
        "closed": _closed_view(close) if close is not None else None,
        "in_memory": False,
        "live": None,
    }
