"""The deal of the day in SQL (``app/daily/service.py``'s ``DailyStore``, and
``app/daily/solo.py``'s ``SoloStore``).

"Fixed once" is the primary key of ``daily_deals``: of two processes fixing the
same day's deal, one insert wins and both read the winner's row.  "Played once"
is the primary key of ``daily_plays`` (day, players, player key's hash) and its unique
index on (day, players, account), claimed before the room is made.  Points are written
only where they are still null, so a result recorded by the match-end hook and by a
later read's catch-up is written once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Table, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from app.daily.ranking import Start
from app.daily.service import DayDeal, Finished, RoomPlay
from app.daily.solo import DealState
from app.rooms.domain.record_types import StoredDeal

from .models import DailyDeal, DailyPlay, DealRow, Seat, table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository

DEALS = table_of(DailyDeal)
PLAYS = table_of(DailyPlay)
ROOM_DEALS = table_of(DealRow)
SEATS = table_of(Seat)


def _insert_new(conn: Connection, table: Table, values: Mapping[str, object]) -> bool:
    """Insert unless the primary key (or a unique key) is taken; True if inserted."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    res = conn.execute(dialect.insert(table).values(**values).on_conflict_do_nothing())
    return bool(res.rowcount)


def _played(day: Any, players: Any) -> Any:
    """How many plays of that deal are finished (a correlated count)."""
    return (
        select(func.count())
        .select_from(PLAYS)
        .where(PLAYS.c.day == day, PLAYS.c.players == players, PLAYS.c.points.is_not(None))
        .scalar_subquery()
    )


def _day_deal(row: Any) -> DayDeal:
    return DayDeal(row.day, row.players, row.seed, row.commitment, int(row.played or 0))


def _deal_query() -> Any:
    return select(
        DEALS.c.day,
        DEALS.c.players,
        DEALS.c.seed,
        DEALS.c.commitment,
        _played(DEALS.c.day, DEALS.c.players).label("played"),
    )


class DailyRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def fix_deal(
        self, day: str, players: int, seed: str, commitment: str, now_ms: int
    ) -> DayDeal:
        return await self.repo._run_write(_fix, day, players, seed, commitment, now_ms)

    @outages_as_unavailable
    async def deal(self, day: str, players: int) -> DayDeal | None:
        q = _deal_query().where(DEALS.c.day == day, DEALS.c.players == players)
        async with self.repo.sessions() as s:
            row = (await s.execute(q)).first()
        return _day_deal(row) if row is not None else None

    @outages_as_unavailable
    async def days(self, before: str, limit: int) -> list[DayDeal]:
        latest = (
            select(DEALS.c.day)
            .where(DEALS.c.day < before)
            .group_by(DEALS.c.day)
            .order_by(DEALS.c.day.desc())
            .limit(limit)
        )
        q = (
            _deal_query()
            .where(DEALS.c.day.in_(latest.scalar_subquery()))
            .order_by(DEALS.c.day.desc(), DEALS.c.players)
        )
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        return [_day_deal(r) for r in rows]

    @outages_as_unavailable
    async def claim(
        self,
        day: str,
        players: int,
        player_hash: str,
        name: str,
        now_ms: int,
        account_id: str | None = None,
        address_hash: str | None = None,
    ) -> bool:
        row = {
            "day": day,
            "players": players,
            "player_hash": player_hash,
            "name": name,
            "started_ms": now_ms,
            "account_id": account_id,
            "address_hash": address_hash,
        }
        # either key taken (this player key's play, this account's) inserts nothing
        return await self.repo._run_write(_insert_new, PLAYS, row)

    @outages_as_unavailable
    async def starts(self, day: str, players: int) -> list[Start]:
        q = select(PLAYS.c.player_hash, PLAYS.c.address_hash, PLAYS.c.started_ms).where(
            PLAYS.c.day == day, PLAYS.c.players == players
        )
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        return [Start(r.player_hash, r.address_hash, int(r.started_ms)) for r in rows]

    @outages_as_unavailable
    async def room_play(self, room_id: str) -> RoomPlay | None:
        q = (
            select(PLAYS.c.day, PLAYS.c.player_hash, PLAYS.c.account_id, SEATS.c.account_id)
            .select_from(PLAYS)
            .outerjoin(SEATS, (SEATS.c.room_id == PLAYS.c.room_id) & (SEATS.c.seat == PLAYS.c.seat))
            .where(PLAYS.c.room_id == room_id)
        )
        async with self.repo.sessions() as s:
            row = (await s.execute(q)).first()
        if row is None:
            return None
        day, player_hash, started_by, holder = row
        return RoomPlay(day, player_hash, frozenset(a for a in (started_by, holder) if a))

    @outages_as_unavailable
    async def unclaim(self, day: str, players: int, player_hash: str) -> None:
        await self.repo._run_write(_unclaim, day, players, player_hash)

    @outages_as_unavailable
    async def seat_play(
        self, day: str, players: int, player_hash: str, room_id: str, seat: int
    ) -> None:
        await self.repo._run_write(_seat, day, players, player_hash, room_id, seat)

    @outages_as_unavailable
    async def finish(self, room_id: str, totals: Sequence[int], now_ms: int) -> bool:
        return await self.repo._run_write(_finish, room_id, list(totals), now_ms)

    @outages_as_unavailable
    async def settle(self, day: str, players: int, now_ms: int) -> int:
        return await self.repo._run_write(_settle, day, players, now_ms)

    @outages_as_unavailable
    async def results(self, day: str, players: int) -> list[Finished]:
        q = select(
            PLAYS.c.name,
            PLAYS.c.points,
            PLAYS.c.room_id,
            PLAYS.c.seat,
            PLAYS.c.player_hash,
            PLAYS.c.account_id,
        ).where(PLAYS.c.day == day, PLAYS.c.players == players, PLAYS.c.points.is_not(None))
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        return [
            Finished(r.name, r.points, r.room_id, r.seat, r.player_hash, r.account_id) for r in rows
        ]

    # "Play this deal yourself" (app/daily/solo.py)

    @outages_as_unavailable
    async def deal_state(self, room_id: str, match_no: int, deal_no: int) -> DealState:
        q = select(ROOM_DEALS.c.scores).where(
            ROOM_DEALS.c.room_id == room_id,
            ROOM_DEALS.c.match_no == match_no,
            ROOM_DEALS.c.deal_no == deal_no,
        )
        async with self.repo.sessions() as s:
            row = (await s.execute(q)).first()
        if row is None:
            return "none"
        return "live" if row[0] is None else "over"

    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        return await self.repo.deal_record(room_id, match_no, deal_no)

    @outages_as_unavailable
    async def seat_of(self, room_id: str, player_hash: str) -> int | None:
        q = select(func.min(SEATS.c.seat)).where(
            SEATS.c.room_id == room_id, SEATS.c.player_hash == player_hash
        )
        async with self.repo.sessions() as s:
            seat = await s.scalar(q)
        return None if seat is None else int(seat)


def _fix(
    conn: Connection, day: str, players: int, seed: str, commitment: str, now_ms: int
) -> DayDeal:
    # of two processes fixing the day's deal at once, the first insert wins and both read it
    row = {"day": day, "players": players, "seed": seed, "commitment": commitment}
    _insert_new(conn, DEALS, {**row, "created_ms": now_ms})
    q = _deal_query().where(DEALS.c.day == day, DEALS.c.players == players)
    return _day_deal(conn.execute(q).one())


def _unclaim(conn: Connection, day: str, players: int, player_hash: str) -> None:
    conn.execute(
        delete(PLAYS).where(
            PLAYS.c.day == day,
            PLAYS.c.players == players,
            PLAYS.c.player_hash == player_hash,
            PLAYS.c.room_id.is_(None),
        )
    )


def _seat(
    conn: Connection, day: str, players: int, player_hash: str, room_id: str, seat: int
) -> None:
    conn.execute(
        update(PLAYS)
        .where(PLAYS.c.day == day, PLAYS.c.players == players, PLAYS.c.player_hash == player_hash)
        .values(room_id=room_id, seat=seat)
    )


def _finish(conn: Connection, room_id: str, totals: list[int], now_ms: int) -> bool:
    seat = conn.execute(
        select(PLAYS.c.seat).where(PLAYS.c.room_id == room_id, PLAYS.c.points.is_(None))
    ).scalar_one_or_none()
    if seat is None or not 0 <= seat < len(totals):
        return False  # not a daily room, or recorded already
    done = conn.execute(
        update(PLAYS)
        .where(PLAYS.c.room_id == room_id, PLAYS.c.points.is_(None))
        .values(points=totals[seat], finished_ms=now_ms)
    )
    return bool(done.rowcount)


def _settle(conn: Connection, day: str, players: int, now_ms: int) -> int:
    """The daily rooms of that deal whose deal is over but whose points nobody wrote
    (a process that died between the last play's commit and the hook)."""
    q = (
        select(PLAYS.c.room_id, ROOM_DEALS.c.totals)
        .join(ROOM_DEALS, ROOM_DEALS.c.room_id == PLAYS.c.room_id)
        .where(
            PLAYS.c.day == day,
            PLAYS.c.players == players,
            PLAYS.c.points.is_(None),
            ROOM_DEALS.c.match_no == 1,
            ROOM_DEALS.c.deal_no == 1,
            ROOM_DEALS.c.totals.is_not(None),
        )
    )
    settled = 0
    for room_id, totals in conn.execute(q).all():
        settled += _finish(conn, room_id, list(totals), now_ms)
    return settled
