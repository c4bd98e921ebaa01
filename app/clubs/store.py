"""What the clubs ask of storage (app/db/clubs.py implements it on SQLite and
PostgreSQL).

Every write is one transaction that first reads what the rules need (``rules.Facts``:
is the club open, the actor's role, the target's role, the counts the limits are about)
and asks ``app/clubs/rules.py`` before it changes anything: a refusal (``ClubRefused``)
rolls the transaction back, so nothing is changed, and a role taken away a moment
before cannot be acted on.  Members are named by username (case aside), as the pages
show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from app.ratings.model import Skill

from .rules import ClubLimits, Role


@dataclass(frozen=True, slots=True)
class NewClub:
    id: str
    name: str
    skeleton: str
    description: str
    owner_id: str
    created_ms: int


@dataclass(frozen=True, slots=True)
class Member:
    username: str
    role: Role
    joined_ms: int


@dataclass(frozen=True, slots=True)
class Pending:
    """A join request waiting for the organisers."""

    username: str
    made_ms: int


@dataclass(frozen=True, slots=True)
class Rated:
    """A member's rating at one player count (the club's leaderboard)."""

    username: str
    skill: Skill
    matches: int


@dataclass(frozen=True, slots=True)
class ClubRow:
    id: str
    name: str
    description: str
    owner: str | None
    """The owner's username (None once the account is deleted)."""
    created_ms: int
    closed_ms: int | None
    member_count: int
    invite_expires_ms: int | None
    """When the current invite link runs out; None without one."""


@dataclass(frozen=True, slots=True)
class ClubRoom:
    """An open club-only room (waiting for players, or in play), as the page lists it."""

    room_id: str
    code: str
    status: str
    players: int
    names: list[str | None]
    """Each seat's player (None: free)."""
    created_ms: int


@dataclass(frozen=True, slots=True)
class ListedClub:
    """An open club as the directory lists it."""

    id: str
    name: str
    member_count: int


@dataclass(frozen=True, slots=True)
class Membership:
    """Whether a club is open, and an account's role in it (None: not a member)."""

    closed: bool
    role: Role | None


@dataclass(frozen=True, slots=True)
class ClubPage:
    """A club as its page shows it to one account."""

    club: ClubRow
    members: list[Member]
    leaderboard: list[Rated]
    you: Role | None
    requested: bool
    """The reader has a pending join request."""
    requests: list[Pending]
    """Pending requests: filled for the owner and organisers only."""
    rooms: list[ClubRoom] = field(default_factory=list)
    """The club's open rooms, newest first: filled for its members only."""


@dataclass(frozen=True, slots=True)
class MyClub:
    id: str
    name: str
    role: Role
    closed_ms: int | None
    member_count: int


class ClubStore(Protocol):
    async def create(self, club: NewClub, limits: ClubLimits) -> None:
        """Store the club with its owner as its first member; ``club_name_taken`` for a
        look-alike of an existing club's name, ``too_many_clubs_owned`` /
        ``too_many_clubs_joined`` past the limits."""

    async def page(
        self, club_id: str, reader_id: str, players: int, member_cap: int
    ) -> ClubPage | None:
        """The club as ``reader_id`` sees it; None for no such club."""

    async def membership(self, club_id: str, account_id: str) -> Membership | None:
        """None for no such club."""

    async def directory(self, skeleton: str, limit: int) -> list[ListedClub]:
        """Open clubs whose name's skeleton holds ``skeleton`` (all: ""), the most
        members first, then by name."""

    async def mine(self, account_id: str) -> list[MyClub]:
        """The clubs the account is a member of, open ones first, by name."""

    async def set_invite(
        self, club_id: str, actor_id: str, token_hash: str | None, expires_ms: int | None
    ) -> None:
        """Replace the club's invite link (None: revoke it); owner and organisers only."""

    async def join(self, token_hash: str, account_id: str, now_ms: int, limits: ClubLimits) -> str:
        """Join the club whose current invite link this is; its id."""

    async def request(self, club_id: str, account_id: str, now_ms: int, limits: ClubLimits) -> None:
        """Ask to join the club."""

    async def answer(
        self,
        club_id: str,
        actor_id: str,
        username: str,
        accept: bool,
        now_ms: int,
        limits: ClubLimits,
    ) -> None:
        """Accept (the requester becomes a member) or refuse a pending request."""

    async def remove(self, club_id: str, actor_id: str, username: str, now_ms: int) -> None:
        """The actor leaves (their own name) or removes a member."""

    async def set_role(
        self, club_id: str, actor_id: str, username: str, role: Role, limits: ClubLimits
    ) -> None:
        """The owner changes a member's role; ``owner`` hands ownership over (the old
        owner becomes an organiser)."""

    async def close(self, club_id: str, actor_id: str, now_ms: int) -> None:
        """The owner closes the club: its link and its requests go; it stays readable."""
