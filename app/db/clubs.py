"""The clubs in SQL (app/clubs/store.py's ``ClubStore``, issue 49): the writes are
app/db/club_writes.py's, each one transaction through the repository's writer (on
SQLite the one writer thread); the reads are here.  Deleted accounts (their rows kept,
their names gone) are left out of every list."""

from __future__ import annotations

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clubs.rules import ClubLimits, Role
from app.clubs.store import (
    ClubPage,
    ClubRoom,
    ClubRow,
    ListedClub,
    Member,
    Membership,
    MyClub,
    NewClub,
    Pending,
    Rated,
)
from app.ratings.model import Skill

from . import club_writes as w
from .base import table_of
from .models import Room, Seat
from .outage import outages_as_unavailable
from .people_models import Rating
from .purge import utc
from .repository import RoomRepository

RATINGS = table_of(Rating)
NAMED = w.ACCOUNTS.c.username.is_not(None)
RANK = {Role.OWNER: 0, Role.ORGANISER: 1, Role.MEMBER: 2}
REQUESTS_SHOWN = 200
ROOMS_SHOWN = 50
"""A club's open rooms its page lists at most."""
OPEN = ("waiting", "playing")
ROOMS = table_of(Room)
SEATS = table_of(Seat)


async def _club(s: AsyncSession, club_id: str) -> ClubRow | None:
    owner = w.ACCOUNTS.alias("owner")
    row = (
        await s.execute(
            select(w.CLUBS, owner.c.username.label("owner_name"))
            .outerjoin(owner, owner.c.id == w.CLUBS.c.owner_id)
            .where(w.CLUBS.c.id == club_id)
        )
    ).first()
    if row is None:
        return None
    return ClubRow(
        row.id,
        row.name,
        row.description,
        row.owner_name,
        row.created_ms,
        row.closed_ms,
        row.members,
        row.invite_expires_ms if row.invite_hash is not None else None,
    )


async def _open_rooms(s: AsyncSession, club_id: str) -> list[ClubRoom]:
    """The club's rooms waiting for players or in play, newest first."""
    rooms = (
        await s.execute(
            select(ROOMS.c.id, ROOMS.c.code, ROOMS.c.status, ROOMS.c.players, ROOMS.c.created_at)
            .where(ROOMS.c.club_id == club_id, ROOMS.c.status.in_(OPEN))
            .order_by(ROOMS.c.created_at.desc())
            .limit(ROOMS_SHOWN)
        )
    ).all()
    ids = [r.id for r in rooms]
    names: dict[str, dict[int, str | None]] = {i: {} for i in ids}
    if ids:
        for room_id, seat, name in await s.execute(
            select(SEATS.c.room_id, SEATS.c.seat, SEATS.c.name).where(SEATS.c.room_id.in_(ids))
        ):
            names[room_id][seat] = name
    return [
        ClubRoom(
            r.id,
            r.code,
            r.status,
            r.players,
            [names[r.id].get(i) for i in range(r.players)],
            int(utc(r.created_at).timestamp() * 1000),
        )
        for r in rooms
    ]


class ClubRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def create(self, club: NewClub, limits: ClubLimits) -> None:
        await self.repo._run_write(w.create, club, limits)

    @outages_as_unavailable
    async def page(
        self, club_id: str, reader_id: str, players: int, member_cap: int
    ) -> ClubPage | None:
        if len(club_id) > 32:
            return None
        async with self.repo.sessions() as s:
            club = await _club(s, club_id)
            if club is None:
                return None
            here = w.MEMBERS.c.club_id == club_id
            rows = (
                await s.execute(
                    select(w.ACCOUNTS.c.username, w.MEMBERS.c.role, w.MEMBERS.c.joined_ms)
                    .join(w.ACCOUNTS, w.ACCOUNTS.c.id == w.MEMBERS.c.account_id)
                    .where(here, NAMED)
                )
            ).all()
            members = sorted(
                (Member(str(r.username), Role(r.role), r.joined_ms) for r in rows),
                key=lambda m: (RANK[m.role], m.username.lower()),
            )[:member_cap]
            rated = (
                await s.execute(
                    select(w.ACCOUNTS.c.username, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.matches)
                    .join(w.MEMBERS, and_(here, w.MEMBERS.c.account_id == RATINGS.c.account_id))
                    .join(w.ACCOUNTS, w.ACCOUNTS.c.id == RATINGS.c.account_id)
                    .where(RATINGS.c.players == players, NAMED)
                    .order_by(RATINGS.c.ordinal.desc(), w.ACCOUNTS.c.username_key)
                    .limit(member_cap)
                )
            ).all()
            you = await s.scalar(
                select(w.MEMBERS.c.role).where(here, w.MEMBERS.c.account_id == reader_id)
            )
            role = None if you is None else Role(you)
            asked = w.REQUESTS.c.club_id == club_id
            requested = await s.scalar(
                select(w.REQUESTS.c.made_ms).where(asked, w.REQUESTS.c.account_id == reader_id)
            )
            pending: list[Pending] = []
            if role in (Role.OWNER, Role.ORGANISER):
                found = await s.execute(
                    select(w.ACCOUNTS.c.username, w.REQUESTS.c.made_ms)
                    .join(w.ACCOUNTS, w.ACCOUNTS.c.id == w.REQUESTS.c.account_id)
                    .where(asked, NAMED)
                    .order_by(w.REQUESTS.c.made_ms)
                    .limit(REQUESTS_SHOWN)
                )
                pending = [Pending(str(r.username), r.made_ms) for r in found]
            rooms = await _open_rooms(s, club_id) if role is not None else []
        return ClubPage(
            club,
            members,
            [Rated(str(r.username), Skill(r.mu, r.sigma), r.matches) for r in rated],
            role,
            requested is not None,
            pending,
            rooms,
        )

    @outages_as_unavailable
    async def membership(self, club_id: str, account_id: str) -> Membership | None:
        if len(club_id) > 32:
            return None
        async with self.repo.sessions() as s:
            closed = (
                await s.execute(select(w.CLUBS.c.closed_ms).where(w.CLUBS.c.id == club_id))
            ).first()
            if closed is None:
                return None
            role = await s.scalar(
                select(w.MEMBERS.c.role).where(
                    w.MEMBERS.c.club_id == club_id, w.MEMBERS.c.account_id == account_id
                )
            )
        return Membership(closed[0] is not None, None if role is None else Role(role))

    @outages_as_unavailable
    async def directory(self, skeleton: str, limit: int) -> list[ListedClub]:
        escaped = skeleton.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = (
            select(w.CLUBS.c.id, w.CLUBS.c.name, w.CLUBS.c.members)
            .where(
                w.CLUBS.c.closed_ms.is_(None),
                w.CLUBS.c.name_skeleton.like(f"%{escaped}%", escape="\\"),
            )
            .order_by(w.CLUBS.c.members.desc(), w.CLUBS.c.name_skeleton)
            .limit(limit)
        )
        async with self.repo.sessions() as s:
            rows = (await s.execute(query)).all()
        return [ListedClub(r.id, r.name, r.members) for r in rows]

    @outages_as_unavailable
    async def mine(self, account_id: str) -> list[MyClub]:
        query = (
            select(
                w.CLUBS.c.id,
                w.CLUBS.c.name,
                w.CLUBS.c.closed_ms,
                w.CLUBS.c.members,
                w.MEMBERS.c.role,
            )
            .join(w.MEMBERS, w.MEMBERS.c.club_id == w.CLUBS.c.id)
            .where(w.MEMBERS.c.account_id == account_id)
        )
        async with self.repo.sessions() as s:
            rows = (await s.execute(query)).all()
        found = [MyClub(r.id, r.name, Role(r.role), r.closed_ms, r.members) for r in rows]
        return sorted(found, key=lambda c: (c.closed_ms is not None, c.name.lower()))

    @outages_as_unavailable
    async def set_invite(
        self, club_id: str, actor_id: str, token_hash: str | None, expires_ms: int | None
    ) -> None:
        await self.repo._run_write(w.set_invite, club_id, actor_id, token_hash, expires_ms)

    @outages_as_unavailable
    async def join(self, token_hash: str, account_id: str, now_ms: int, limits: ClubLimits) -> str:
        return await self.repo._run_write(w.join, token_hash, account_id, now_ms, limits)

    @outages_as_unavailable
    async def request(self, club_id: str, account_id: str, now_ms: int, limits: ClubLimits) -> None:
        await self.repo._run_write(w.request, club_id, account_id, now_ms, limits)

    @outages_as_unavailable
    async def answer(
        self,
        club_id: str,
        actor_id: str,
        username: str,
        accept: bool,
        now_ms: int,
        limits: ClubLimits,
    ) -> None:
        await self.repo._run_write(w.answer, club_id, actor_id, username, accept, now_ms, limits)

    @outages_as_unavailable
    async def remove(self, club_id: str, actor_id: str, username: str, now_ms: int) -> None:
        await self.repo._run_write(w.remove, club_id, actor_id, username, now_ms)

    @outages_as_unavailable
    async def set_role(
        self, club_id: str, actor_id: str, username: str, role: Role, limits: ClubLimits
    ) -> None:
        await self.repo._run_write(w.set_role, club_id, actor_id, username, role, limits)

    @outages_as_unavailable
    async def close(self, club_id: str, actor_id: str, now_ms: int) -> None:
        await self.repo._run_write(w.close, club_id, actor_id, now_ms)
