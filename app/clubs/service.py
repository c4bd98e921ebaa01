"""The clubs as the API asks them (issue 49): checks what needs no database (a name, a
description, the per-account rate), then hands each write to the store, whose
transaction asks the rules (app/clubs/rules.py) before it changes anything.

The invite link's token is made here and only its hash is stored: whoever holds the
link joins at once, so it is a secret like a seat's token (app/core/tokens.py), shown
once to the organiser who made it.  Making a new one revokes the old.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypedDict, TypeVar

from app.core.clock import now_ms
from app.core.errors import Conflict, ErrorCode, ServiceError, Unavailable, unavailable
from app.core.tokens import hash_token, new_token
from app.limits.rate import KeyedRateLimit
from app.names import name_key
from app.ratings.model import MAX_PLAYERS, MIN_PLAYERS
from app.ratings.ratings import SkillJson, skill_json

from .errors import ClubCode, ClubRefused
from .rules import ClubLimits, Role, check_description, check_name
from .store import ClubPage, ClubStore, NewClub

DIRECTORY_MAX = 50
"""Clubs the directory lists at most (a narrower search finds the others)."""
MEMBER_CAP = 200
"""Members a club's page lists at most (``member_count`` says how many there are)."""
T = TypeVar("T")
TOKEN_MAX = 64
"""An invite token longer than this is no token of ours (refused without a look-up)."""


class MemberJson(TypedDict):
    username: str
    role: str
    joined_ms: int


class RankedJson(SkillJson):
    username: str
    matches: int


class LeaderboardJson(TypedDict):
    players: int
    rows: list[RankedJson]


class RequestJson(TypedDict):
    username: str
    made_ms: int


class ClubRoomJson(TypedDict):
    room_id: str
    code: str
    status: str
    players: int
    names: list[str | None]
    created_ms: int


class ClubJson(TypedDict):
    id: str
    name: str
    description: str
    owner: str | None
    created_ms: int
    closed: bool
    closed_ms: int | None
    member_count: int
    members: list[MemberJson]
    leaderboard: LeaderboardJson
    rooms: list[ClubRoomJson]
    you: str | None
    requested: bool
    invite_expires_ms: int | None
    requests: list[RequestJson]


class MyClubJson(TypedDict):
    id: str
    name: str
    role: str
    closed: bool
    member_count: int


class ListedClubJson(TypedDict):
    id: str
    name: str
    member_count: int


class InviteJson(TypedDict):
    invite: str
    url: str
    expires_ms: int


@dataclass(frozen=True, slots=True)
class ClubSettings:
    limits: ClubLimits
    actions_per_minute: float
    """Club writes (make, ask, join, a new link) per account a minute, in one process."""


def club_json(page: ClubPage, players: int) -> ClubJson:
    club = page.club
    organiser = page.you in (Role.OWNER, Role.ORGANISER)
    return {
        "id": club.id,
        "name": club.name,
        "description": club.description,
        "owner": club.owner,
        "created_ms": club.created_ms,
        "closed": club.closed_ms is not None,
        "closed_ms": club.closed_ms,
        "member_count": club.member_count,
        "members": [
            {"username": m.username, "role": m.role.value, "joined_ms": m.joined_ms}
            for m in page.members
        ],
        "leaderboard": {
            "players": players,
            "rows": [
                {**skill_json(r.skill), "username": r.username, "matches": r.matches}
                for r in page.leaderboard
            ],
        },
        "rooms": [
            {
                "room_id": r.room_id,
                "code": r.code,
                "status": r.status,
                "players": r.players,
                "names": list(r.names),
                "created_ms": r.created_ms,
            }
            for r in page.rooms
        ],
        "you": None if page.you is None else page.you.value,
        "requested": page.requested,
        "invite_expires_ms": club.invite_expires_ms if organiser else None,
        "requests": [{"username": r.username, "made_ms": r.made_ms} for r in page.requests],
    }


class Clubs:
    def __init__(
        self, store: ClubStore, settings: ClubSettings, clock: Callable[[], int] = now_ms
    ) -> None:
        self.store = store
        self.limits = settings.limits
        self.rate = KeyedRateLimit(settings.actions_per_minute)
        self.clock = clock

    def _spend(self, account_id: str) -> None:
        if not self.rate.allow(account_id):
            wait = self.rate.retry_after(account_id)
            raise ClubRefused(
                ClubCode.CLUB_RATE_LIMITED,
                f"too many club actions from this account; try again in {wait} s",
            )

    async def create(self, account_id: str, name: str, description: str) -> ClubJson:
        shown, skeleton = check_name(name)
        text = check_description(description)
        self._spend(account_id)
        club = NewClub(secrets.token_hex(8), shown, skeleton, text, account_id, self.clock())
        try:
            await self.store.create(club, self.limits)
        except Conflict as exc:  # a look-alike made at the same moment: its unique key
            raise ClubRefused(
                ClubCode.CLUB_NAME_TAKEN, "a club with this name (or one like it) exists"
            ) from exc
        except Unavailable as exc:
            raise unavailable() from exc
        return await self.club(club.id, account_id)

    async def check_seat(self, club_id: str, account_id: str | None) -> None:
        """A club-only room's seat (making the room, or joining it) is for a member of
        the open club ``club_id``: 403 ``club_members_only`` for anyone else (signed out
        included), 404 ``no_such_club``, 409 ``club_closed``."""
        if account_id is None:
            raise ClubRefused(
                ClubCode.CLUB_MEMBERS_ONLY, "this room is for a club's members: sign in first"
            )
        try:
            found = await self.store.membership(club_id, account_id)
        except Unavailable as exc:
            raise unavailable() from exc
        if found is None:
            raise ClubRefused(ClubCode.NO_SUCH_CLUB, "no club of that id")
        if found.closed:
            raise ClubRefused(ClubCode.CLUB_CLOSED, "the club is closed")
        if found.role is None:
            raise ClubRefused(
                ClubCode.CLUB_MEMBERS_ONLY, "this room is for the club's members only"
            )

    async def club(self, club_id: str, reader_id: str, players: int = 2) -> ClubJson:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ClubRefused(ClubCode.NO_SUCH_CLUB, "no such leaderboard")  # the API checks
        try:
            page = await self.store.page(club_id, reader_id, players, MEMBER_CAP)
        except Unavailable as exc:
            raise unavailable() from exc
        if page is None:
            raise ClubRefused(ClubCode.NO_SUCH_CLUB, "no such club")
        return club_json(page, players)

    async def directory(self, query: str) -> list[ListedClubJson]:
        """Open clubs whose name holds ``query`` as names are compared (its skeleton:
        case, spaces and look-alike letters aside; "" lists them all), the most
        members first, at most ``DIRECTORY_MAX``."""
        wanted = name_key(" ".join(query.split())) if query.strip() else ""
        try:
            found = await self.store.directory(wanted, DIRECTORY_MAX)
        except Unavailable as exc:
            raise unavailable() from exc
        return [{"id": c.id, "name": c.name, "member_count": c.member_count} for c in found]

    async def mine(self, account_id: str) -> list[MyClubJson]:
        try:
            found = await self.store.mine(account_id)
        except Unavailable as exc:
            raise unavailable() from exc
        return [
            {
                "id": c.id,
                "name": c.name,
                "role": c.role.value,
                "closed": c.closed_ms is not None,
                "member_count": c.member_count,
            }
            for c in found
        ]

    async def renew_invite(self, club_id: str, account_id: str) -> InviteJson:
        self._spend(account_id)
        token = "kkc_" + new_token()
        expires = self.clock() + self.limits.invite_ms
        await self._write(self.store.set_invite(club_id, account_id, hash_token(token), expires))
        return {"invite": token, "url": f"/clubs/join#{token}", "expires_ms": expires}

    async def revoke_invite(self, club_id: str, account_id: str) -> None:
        await self._write(self.store.set_invite(club_id, account_id, None, None))

    async def join(self, token: str, account_id: str) -> str:
        self._spend(account_id)
        if not token.startswith("kkc_") or len(token) > TOKEN_MAX:
            raise ClubRefused(ClubCode.BAD_INVITE, "this is not a club's invite link")
        return await self._write(
            self.store.join(hash_token(token), account_id, self.clock(), self.limits)
        )

    async def request(self, club_id: str, account_id: str) -> None:
        self._spend(account_id)
        await self._write(self.store.request(club_id, account_id, self.clock(), self.limits))

    async def answer(self, club_id: str, account_id: str, username: str, accept: bool) -> None:
        await self._write(
            self.store.answer(club_id, account_id, username, accept, self.clock(), self.limits)
        )

    async def remove(self, club_id: str, account_id: str, username: str) -> None:
        await self._write(self.store.remove(club_id, account_id, username, self.clock()))

    async def set_role(self, club_id: str, account_id: str, username: str, role: Role) -> None:
        await self._write(self.store.set_role(club_id, account_id, username, role, self.limits))

    async def close(self, club_id: str, account_id: str) -> None:
        await self._write(self.store.close(club_id, account_id, self.clock()))

    @staticmethod
    async def _write(pending: Awaitable[T]) -> T:
        try:
            return await pending
        except Unavailable as exc:
            raise unavailable() from exc
        except Conflict as exc:  # two writes of one row at once: the other came first
            raise ServiceError(
                ErrorCode.BUSY, "another change to this club came first; try again"
            ) from exc
