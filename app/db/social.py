"""Queries for what stands beside play: room chat and the lobby's list of public rooms.

Chat lines are rows of their own (``chat_messages``), never events: a chat message does
not move the room's seq.  Public rooms are found by the indexed ``rooms.public``
column, newest first, a page at a time with a keyset cursor (a room made while a
client pages does not shift the pages it has not read yet).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, insert, select, tuple_

from app.social.chat import ChatLine
from app.social.public_rooms import ListedRoom

from .models import ChatMessage, DealRow, MatchRow, Room, Seat
from .outage import outages_as_unavailable
from .repository import RoomRepository
from .seat_reads import seat_name, seats_where

LIVE = ("waiting", "playing")


def _chat_row(r: ChatMessage) -> ChatLine:
    return {
        "id": r.id,
        "seat": r.seat,
        "name": r.name,
        "text": r.text,
        "hidden": bool(r.hidden),
        "at": r.at_ms,
        "spectator": r.seat is None,
    }


class ChatRows:
    """What ``app.social.chat.Chat`` stores (its ``ChatStore``)."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def add(
        self, room_id: str, seat: int | None, name: str | None, text: str, hidden: bool, at_ms: int
    ) -> int:
        async with self.repo.sessions.begin() as s:
            res = await s.execute(
                insert(ChatMessage)
                .values(
                    room_id=room_id, seat=seat, name=name, text=text, hidden=hidden, at_ms=at_ms
                )
                .returning(ChatMessage.id)
            )
            return int(res.scalar_one())

    @outages_as_unavailable
    async def get(self, message_id: int) -> tuple[str, ChatLine] | None:
        """(room id, message) of one stored line."""
        async with self.repo.sessions() as s:
            row = await s.get(ChatMessage, message_id)
        return (row.room_id, _chat_row(row)) if row is not None else None

    @outages_as_unavailable
    async def room_status(self, room_id: str) -> str | None:
        async with self.repo.sessions() as s:
            return await s.scalar(select(Room.status).where(Room.id == room_id))

    @outages_as_unavailable
    async def lines(
        self, room_id: str, *, after: int = 0, limit: int = 100, newest: bool = False
    ) -> list[ChatLine]:
        """A room's lines in order, after the id ``after``; ``newest``: the last ``limit``."""
        q = select(ChatMessage).where(ChatMessage.room_id == room_id, ChatMessage.id > after)
        q = q.order_by(ChatMessage.id.desc() if newest else ChatMessage.id).limit(limit)
        async with self.repo.sessions() as s:
            rows = list((await s.scalars(q)).all())
        if newest:
            rows.reverse()
        return [_chat_row(r) for r in rows]


def _micros(when: datetime) -> int:
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    delta = when - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


class PublicRoomRows:
    """The rooms a lobby lists (``app.social.public_rooms.PublicRooms``)."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def page(
        self, status: str, before: tuple[int, str] | None, limit: int
    ) -> list[ListedRoom]:
        """Public rooms of ``status``, newest first, older than the cursor ``before``
        ((created µs, id) of the last room of the previous page)."""
        q = select(Room).where(Room.public.is_(True), Room.status == status)
        if before is not None:
            when = datetime.fromtimestamp(before[0] / 1_000_000, tz=UTC)
            q = q.where(tuple_(Room.created_at, Room.id) < tuple_(when, before[1]))
        q = q.order_by(Room.created_at.desc(), Room.id.desc()).limit(limit)
        async with self.repo.sessions() as s:
            rooms = list((await s.scalars(q)).all())
            ids = [r.id for r in rooms]
            seats = (
                (await s.execute(seats_where(Seat.room_id.in_(ids)))).tuples().all() if ids else []
            )
            deals = (
                (
                    await s.execute(
                        select(DealRow.room_id, DealRow.match_no, func.max(DealRow.deal_no))
                        .where(DealRow.room_id.in_(ids))
                        .group_by(DealRow.room_id, DealRow.match_no)
                    )
                ).all()
                if ids
                else []
            )
            matches = (
                (
                    await s.execute(
                        select(MatchRow.room_id, func.max(MatchRow.match_no))
                        .where(MatchRow.room_id.in_(ids))
                        .group_by(MatchRow.room_id)
                    )
                ).all()
                if ids
                else []
            )
        current = {room_id: m for room_id, m in matches}
        deal_no = {room_id: n for room_id, m, n in deals if current.get(room_id) == m}
        out: list[ListedRoom] = []
        for r in rooms:
            mine = sorted((x for x in seats if x[0].room_id == r.id), key=lambda x: x[0].seat)
            out.append(
                {
                    "room_id": r.id,
                    "code": r.code,
                    "status": r.status,
                    "players": r.players,
                    "rules": dict(r.rules),
                    "options": {k: v for k, v in r.options.items() if k != "preset"},
                    "created": _micros(r.created_at),
                    "seats": [seat_name(x, bot_since) for x, bot_since in mine],
                    "deal_no": deal_no.get(r.id, 0),
                }
            )
        return out
