"""Ratings in SQL: the ``RatingStore`` of app/ratings/ratings.py.

A match is rated in one transaction (``_record``): its ``rated_matches`` row first,
whose primary key fails a second attempt (``Conflict``: someone rated it already,
nothing else is written); then the players' rating rows, read ``FOR UPDATE`` on
PostgreSQL so that two matches of one player finishing at once on two processes
update it one after the other (SQLite has one writer anyway); then the new ratings
and each seat's result, with a ``rating_changed`` domain event per account (the
outbox's, app/ratings/events.py).  Two first matches of one account racing to insert its row
make one of them fail on the rating's key: that one is tried again.  The seats each
seat's rating ignored (issue 46) are written in the same transaction
(``rating_apart``).

Sightings (``account_sightings``): an account seen at an address or with a player key,
one row per (account, kind, value) with the last time, upserted; two accounts are
linked when a value has rows of both since the window's start.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from app.core.clock import now_ms
from app.core.errors import Conflict
from app.ratings.events import rating_events
from app.ratings.model import Skill
from app.ratings.ratings import (
    LeaderRow,
    MatchResult,
    RatedMatch,
    Rater,
    RatingEntry,
    SeatChange,
)

from .daily_models import AccountSighting, RatingApart
from .models import Account, MatchRow, RatedMatchRow, Rating, RatingResult, Room, Seat, table_of
from .outage import outages_as_unavailable
from .outbox import write_events
from .repository import RoomRepository

RATED = table_of(RatedMatchRow)
RESULTS = table_of(RatingResult)
RATINGS = table_of(Rating)
APART = table_of(RatingApart)
SIGHTINGS = table_of(AccountSighting)
ATTEMPTS = 5
"""Transactions tried before a rating that keeps losing races is left to the catch-up."""


class RatingRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def seat_accounts(self, room_id: str) -> dict[int, str]:
        async with self.repo.sessions() as s:
            rows = await s.execute(
                select(Seat.seat, Seat.account_id).where(
                    Seat.room_id == room_id, Seat.account_id.is_not(None)
                )
            )
            return {int(seat): str(account) for seat, account in rows}

    @outages_as_unavailable
    async def linked(self, accounts: Collection[str], since_ms: int) -> set[frozenset[str]]:
        one, other = aliased(AccountSighting), aliased(AccountSighting)
        query = (
            select(one.account_id, other.account_id)
            .join(
                other,
                and_(
                    other.kind == one.kind,
                    other.value_hash == one.value_hash,
                    other.account_id > one.account_id,
                ),
            )
            .where(
                one.account_id.in_(list(accounts)),
                other.account_id.in_(list(accounts)),
                one.last_ms >= since_ms,
                other.last_ms >= since_ms,
            )
            .distinct()
        )
        async with self.repo.sessions() as s:
            return {frozenset((str(a), str(b))) for a, b in await s.execute(query)}

    @outages_as_unavailable
    async def sighted(self, account_id: str, kind: str, value: str, now_ms: int) -> None:
        await self.repo._run_write(_sighted, account_id, kind, value, now_ms)

    @outages_as_unavailable
    async def forget_sightings(self, before_ms: int) -> int:
        return await self.repo._run_write(_forget, before_ms)

    @outages_as_unavailable
    async def match_result(self, room_id: str, match_no: int) -> MatchResult | None:
        async with self.repo.sessions() as s:
            found = await s.get(RatedMatchRow, (room_id, match_no))
            if found is None:
                return None
            keys = (RatingResult.room_id == room_id, RatingResult.match_no == match_no)
            rows = (await s.scalars(select(RatingResult).where(*keys))).all()
            apart = (
                await s.execute(
                    select(APART.c.seat, APART.c.other, APART.c.why).where(
                        APART.c.room_id == room_id, APART.c.match_no == match_no
                    )
                )
            ).all()
        ignored: dict[int, list[tuple[int, str]]] = {}
        for seat, other, why in apart:
            ignored.setdefault(int(seat), []).append((int(other), str(why)))
        seats = tuple(
            SeatChange(
                seat=r.seat,
                account_id=r.account_id,
                bot_level=r.bot_level,
                rank=r.rank,
                left=bool(r.left),
                total=r.total,
                before=Skill(r.mu_before, r.sigma_before),
                after=Skill(r.mu_after, r.sigma_after),
                apart=tuple(sorted(ignored.get(r.seat, []))),
            )
            for r in sorted(rows, key=lambda r: r.seat)
        )
        return MatchResult(room_id, match_no, found.players, found.at_ms, bool(found.void), seats)

    @outages_as_unavailable
    async def record(self, match: RatedMatch, rater: Rater) -> bool:
        for _ in range(ATTEMPTS):
            try:
                return await self.repo._run_write(_record, match, rater)
            except Conflict:
                if await self._rated(match.room_id, match.match_no):
                    return False  # another process (or an earlier call) rated it
        return False  # the catch-up tries again later

    @outages_as_unavailable
    async def void(self, room_id: str, match_no: int, players: int, at_ms: int) -> None:
        """Mark a match looked at and not rated, so that the catch-up passes it by."""
        try:
            await self.repo._run_write(_void, room_id, match_no, players, at_ms)
        except Conflict:
            pass  # rated (or voided) meanwhile

    async def _rated(self, room_id: str, match_no: int) -> bool:
        async with self.repo.sessions() as s:
            found = await s.get(RatedMatchRow, (room_id, match_no))
            return found is not None

    @outages_as_unavailable
    async def unrated(self, limit: int) -> list[tuple[str, int]]:
        rated_room = Room.options["rated"].as_boolean()
        query = (
            select(MatchRow.room_id, MatchRow.match_no)
            .join(Room, Room.id == MatchRow.room_id)
            .outerjoin(
                RatedMatchRow,
                and_(
                    RatedMatchRow.room_id == MatchRow.room_id,
                    RatedMatchRow.match_no == MatchRow.match_no,
                ),
            )
            .where(MatchRow.finished.is_(True), rated_room.is_(True))
            .where(RatedMatchRow.room_id.is_(None))
            .order_by(Room.updated_at)
            .limit(limit)
        )
        async with self.repo.sessions() as s:
            return [(str(r), int(m)) for r, m in await s.execute(query)]

    @outages_as_unavailable
    async def ratings_of(self, account_id: str) -> list[RatingEntry]:
        async with self.repo.sessions() as s:
            rows = await s.scalars(
                select(Rating).where(Rating.account_id == account_id).order_by(Rating.players)
            )
            return [RatingEntry(r.players, Skill(r.mu, r.sigma), r.matches) for r in rows]

    @outages_as_unavailable
    async def leaderboard(self, players: int, min_matches: int, limit: int) -> list[LeaderRow]:
        query = (
            select(Account.username, Rating.mu, Rating.sigma, Rating.matches)
            .join(Account, Account.id == Rating.account_id)
            .where(
                Rating.players == players,
                Rating.matches >= min_matches,
                Account.deleted_ms.is_(None),
                Account.username.is_not(None),
            )
            .order_by(Rating.ordinal.desc(), Account.username_key)
            .limit(limit)
        )
        async with self.repo.sessions() as s:
            return [
                LeaderRow(str(name), Skill(mu, sigma), matches)
                for name, mu, sigma, matches in await s.execute(query)
            ]


def _record(conn: Connection, match: RatedMatch, rater: Rater) -> bool:
    conn.execute(
        insert(RATED).values(
            room_id=match.room_id,
            match_no=match.match_no,
            players=match.players,
            at_ms=match.at_ms,
            void=False,
        )
    )  # fails (IntegrityError: Conflict) when the match was rated already
    accounts = [s.account_id for s in match.seats if s.account_id is not None]
    current = {
        row.account_id: row
        for row in conn.execute(
            select(RATINGS)
            .where(RATINGS.c.account_id.in_(accounts), RATINGS.c.players == match.players)
            .with_for_update()
        )
    }
    changes = rater({a: Skill(r.mu, r.sigma) for a, r in current.items()})
    for change in changes:
        conn.execute(
            insert(RESULTS).values(
                room_id=match.room_id,
                match_no=match.match_no,
                seat=change.seat,
                account_id=change.account_id,
                bot_level=change.bot_level,
                rank=change.rank,
                left=change.left,
                total=change.total,
                mu_before=change.before.mu,
                sigma_before=change.before.sigma,
                mu_after=change.after.mu,
                sigma_after=change.after.sigma,
            )
        )
        for other, why in change.apart:
            conn.execute(
                insert(APART).values(
                    room_id=match.room_id,
                    match_no=match.match_no,
                    seat=change.seat,
                    other=other,
                    why=why,
                )
            )
        if change.account_id is None:
            continue  # a bot: its anchor is never written
        new: dict[str, float | int] = {
            "mu": change.after.mu,
            "sigma": change.after.sigma,
            "ordinal": change.after.ordinal,
            "updated_ms": match.at_ms,
        }
        if change.account_id in current:
            conn.execute(
                update(RATINGS)
                .where(
                    RATINGS.c.account_id == change.account_id,
                    RATINGS.c.players == match.players,
                )
                .values(matches=RATINGS.c.matches + 1, **new)
            )
        else:
            conn.execute(
                insert(RATINGS).values(
                    account_id=change.account_id, players=match.players, matches=1, **new
                )
            )
    # after the match's row: a match rated again failed on it and stores no event twice
    write_events(conn, rating_events(match, changes), now_ms())
    return True


def _void(conn: Connection, room_id: str, match_no: int, players: int, at_ms: int) -> None:
    conn.execute(
        insert(RATED).values(
            room_id=room_id, match_no=match_no, players=players, at_ms=at_ms, void=True
        )
    )


def _sighted(conn: Connection, account_id: str, kind: str, value: str, now_ms: int) -> None:
    dialect: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    row = {"account_id": account_id, "kind": kind, "value_hash": value, "last_ms": now_ms}
    stmt = dialect.insert(SIGHTINGS).values(**row)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["account_id", "kind", "value_hash"],
            set_={"last_ms": stmt.excluded.last_ms},
            where=SIGHTINGS.c.last_ms < stmt.excluded.last_ms,
        )
    )


def _forget(conn: Connection, before_ms: int) -> int:
    return int(conn.execute(delete(SIGHTINGS).where(SIGHTINGS.c.last_ms < before_ms)).rowcount)
