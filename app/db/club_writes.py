"""The clubs' writes, each one transaction on a ``Connection`` (app/db/clubs.py runs
them through the repository's writer): read the facts, ask app/clubs/rules.py, then
change.  A ``ClubRefused`` raised here rolls the whole transaction back."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from app.clubs.errors import ClubCode, ClubRefused
from app.clubs.rules import Act, ClubLimits, Facts, Role, check_leave, check_may, check_open
from app.clubs.store import NewClub

from .base import table_of
from .club_models import ClubMemberRow, ClubRemovalRow, ClubRequestRow, ClubRow
from .people_models import Account

CLUBS = table_of(ClubRow)
MEMBERS = table_of(ClubMemberRow)
REQUESTS = table_of(ClubRequestRow)
REMOVALS = table_of(ClubRemovalRow)
ACCOUNTS = table_of(Account)
OPEN = CLUBS.c.closed_ms.is_(None)


def role_of(conn: Connection, club_id: str, account_id: str) -> Role | None:
    found = conn.execute(
        select(MEMBERS.c.role).where(
            MEMBERS.c.club_id == club_id, MEMBERS.c.account_id == account_id
        )
    ).scalar()
    return None if found is None else Role(found)


def _closed(conn: Connection, club_id: str) -> bool:
    row = conn.execute(select(CLUBS.c.closed_ms).where(CLUBS.c.id == club_id)).first()
    if row is None:
        raise ClubRefused(ClubCode.NO_SUCH_CLUB, "no such club")
    return row.closed_ms is not None


def _account(conn: Connection, username: str) -> str:
    """The id of the (not deleted) account of this username, case aside."""
    found = conn.execute(
        select(ACCOUNTS.c.id).where(
            ACCOUNTS.c.username_key == username.lower(), ACCOUNTS.c.deleted_ms.is_(None)
        )
    ).scalar()
    if found is None or len(username) > 64:
        raise ClubRefused(ClubCode.NOT_CLUB_MEMBER, "no account of this name is in the club")
    return str(found)


def lock_account(conn: Connection, account_id: str) -> None:
    """Hold the account's row to the end of the transaction (PostgreSQL: ``FOR UPDATE``;
    SQLite's one writer serialises anyway), so that one account's writes at once count
    its clubs and requests one after the other and its caps hold exactly.  Always taken
    before a club's row, so that two transactions never wait on each other in turn."""
    conn.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.id == account_id).with_for_update())


def _count(conn: Connection, query: object) -> int:
    return int(conn.execute(query).scalar() or 0)  # type: ignore[call-overload]


def _joined(conn: Connection, account_id: str) -> int:
    return _count(
        conn,
        select(func.count())
        .select_from(MEMBERS.join(CLUBS, CLUBS.c.id == MEMBERS.c.club_id))
        .where(MEMBERS.c.account_id == account_id, OPEN),
    )


def _owned(conn: Connection, account_id: str) -> int:
    return _count(conn, select(func.count()).where(CLUBS.c.owner_id == account_id, OPEN))


def _check_joined(conn: Connection, account_id: str, limits: ClubLimits) -> None:
    if _joined(conn, account_id) >= limits.joined:
        raise ClubRefused(
            ClubCode.TOO_MANY_CLUBS_JOINED, f"an account is in at most {limits.joined} clubs"
        )


def _add_member(
    conn: Connection, club_id: str, account_id: str, now_ms: int, limits: ClubLimits
) -> None:
    """A new member: the per-account cap, then the club's, held by a conditional UPDATE
    of its count (of two joins at once, at most the cap's worth win)."""
    lock_account(conn, account_id)
    _check_joined(conn, account_id, limits)
    grown = conn.execute(
        update(CLUBS)
        .where(CLUBS.c.id == club_id, OPEN, CLUBS.c.members < limits.members)
        .values(members=CLUBS.c.members + 1)
    )
    if grown.rowcount != 1:
        raise ClubRefused(ClubCode.CLUB_FULL, f"a club has at most {limits.members} members")
    conn.execute(
        insert(MEMBERS).values(
            club_id=club_id, account_id=account_id, role=Role.MEMBER.value, joined_ms=now_ms
        )
    )
    for table in (REQUESTS, REMOVALS):
        conn.execute(
            delete(table).where(table.c.club_id == club_id, table.c.account_id == account_id)
        )


def create(conn: Connection, club: NewClub, limits: ClubLimits) -> None:
    lock_account(conn, club.owner_id)
    taken = conn.execute(select(CLUBS.c.id).where(CLUBS.c.name_skeleton == club.skeleton))
    if taken.first() is not None:
        raise ClubRefused(
            ClubCode.CLUB_NAME_TAKEN, "a club with this name (or one that looks like it) exists"
        )
    if _owned(conn, club.owner_id) >= limits.owned:
        raise ClubRefused(
            ClubCode.TOO_MANY_CLUBS_OWNED, f"an account owns at most {limits.owned} open clubs"
        )
    _check_joined(conn, club.owner_id, limits)
    conn.execute(
        insert(CLUBS).values(
            id=club.id,
            name=club.name,
            name_skeleton=club.skeleton,
            description=club.description,
            owner_id=club.owner_id,
            created_ms=club.created_ms,
            members=1,
        )
    )
    conn.execute(
        insert(MEMBERS).values(
            club_id=club.id,
            account_id=club.owner_id,
            role=Role.OWNER.value,
            joined_ms=club.created_ms,
        )
    )


def set_invite(
    conn: Connection, club_id: str, actor_id: str, token_hash: str | None, expires: int | None
) -> None:
    check_may(Facts(_closed(conn, club_id), role_of(conn, club_id, actor_id)), Act.INVITE)
    conn.execute(
        update(CLUBS)
        .where(CLUBS.c.id == club_id)
        .values(invite_hash=token_hash, invite_expires_ms=expires)
    )


def join(conn: Connection, token_hash: str, account_id: str, now: int, limits: ClubLimits) -> str:
    row = conn.execute(
        select(CLUBS.c.id, CLUBS.c.closed_ms, CLUBS.c.invite_expires_ms).where(
            CLUBS.c.invite_hash == token_hash
        )
    ).first()
    if row is None or row.invite_expires_ms is None or row.invite_expires_ms <= now:
        raise ClubRefused(
            ClubCode.BAD_INVITE, "this invite link is not valid (revoked, renewed or expired)"
        )
    check_open(Facts(row.closed_ms is not None, None))
    if role_of(conn, row.id, account_id) is not None:
        raise ClubRefused(ClubCode.ALREADY_CLUB_MEMBER, "you are a member of this club already")
    removed = conn.execute(
        select(REMOVALS.c.club_id).where(
            REMOVALS.c.club_id == row.id, REMOVALS.c.account_id == account_id
        )
    ).first()
    if removed is not None:
        raise ClubRefused(
            ClubCode.REMOVED_FROM_CLUB,
            "this club removed you: ask to join, and its organisers decide",
        )
    _add_member(conn, row.id, account_id, now, limits)
    return str(row.id)


def request(conn: Connection, club_id: str, account_id: str, now: int, limits: ClubLimits) -> None:
    lock_account(conn, account_id)
    check_open(Facts(_closed(conn, club_id), None))
    if role_of(conn, club_id, account_id) is not None:
        raise ClubRefused(ClubCode.ALREADY_CLUB_MEMBER, "you are a member of this club already")
    mine = REQUESTS.c.account_id == account_id
    if conn.execute(select(REQUESTS.c.made_ms).where(REQUESTS.c.club_id == club_id, mine)).first():
        raise ClubRefused(ClubCode.CLUB_REQUEST_PENDING, "you have asked to join already")
    if _count(conn, select(func.count()).where(REQUESTS.c.club_id == club_id)) >= (
        limits.requests_per_club
    ):
        raise ClubRefused(
            ClubCode.TOO_MANY_CLUB_REQUESTS, "this club has too many requests waiting; try later"
        )
    if _count(conn, select(func.count()).where(mine)) >= limits.requests_per_account:
        raise ClubRefused(
            ClubCode.TOO_MANY_CLUB_REQUESTS,
            f"an account has at most {limits.requests_per_account} requests waiting",
        )
    conn.execute(insert(REQUESTS).values(club_id=club_id, account_id=account_id, made_ms=now))


def answer(
    conn: Connection,
    club_id: str,
    actor_id: str,
    username: str,
    accept: bool,
    now: int,
    limits: ClubLimits,
) -> None:
    check_may(Facts(_closed(conn, club_id), role_of(conn, club_id, actor_id)), Act.ANSWER)
    target = _account(conn, username)
    where = (REQUESTS.c.club_id == club_id, REQUESTS.c.account_id == target)
    if conn.execute(select(REQUESTS.c.made_ms).where(*where)).first() is None:
        raise ClubRefused(ClubCode.NO_CLUB_REQUEST, "this account has not asked to join")
    if accept:
        _add_member(conn, club_id, target, now, limits)
    else:
        conn.execute(delete(REQUESTS).where(*where))


def remove(conn: Connection, club_id: str, actor_id: str, username: str, now: int) -> None:
    closed = _closed(conn, club_id)
    actor = role_of(conn, club_id, actor_id)
    target_id = _account(conn, username)
    if target_id == actor_id:
        check_leave(Facts(closed, actor))
    else:
        check_may(Facts(closed, actor, Role.MEMBER), Act.REMOVE)  # may remove anyone at all
        target = role_of(conn, club_id, target_id)
        if target is None:
            raise ClubRefused(ClubCode.NOT_CLUB_MEMBER, "this account is not in the club")
        check_may(Facts(closed, actor, target), Act.REMOVE)
        conn.execute(
            delete(REMOVALS).where(
                REMOVALS.c.club_id == club_id, REMOVALS.c.account_id == target_id
            )
        )
        conn.execute(insert(REMOVALS).values(club_id=club_id, account_id=target_id, removed_ms=now))
    conn.execute(
        delete(MEMBERS).where(MEMBERS.c.club_id == club_id, MEMBERS.c.account_id == target_id)
    )
    conn.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(members=CLUBS.c.members - 1))


def set_role(
    conn: Connection, club_id: str, actor_id: str, username: str, role: Role, limits: ClubLimits
) -> None:
    closed = _closed(conn, club_id)
    check_may(Facts(closed, role_of(conn, club_id, actor_id)), Act.SET_ROLE)
    target_id = _account(conn, username)
    if role_of(conn, club_id, target_id) is None:
        raise ClubRefused(ClubCode.NOT_CLUB_MEMBER, "this account is not in the club")
    if target_id == actor_id:
        raise ClubRefused(
            ClubCode.CLUB_FORBIDDEN, "the owner hands ownership to another member instead"
        )
    if role is Role.OWNER:
        lock_account(conn, target_id)
        if _owned(conn, target_id) >= limits.owned:
            raise ClubRefused(
                ClubCode.TOO_MANY_CLUBS_OWNED, f"an account owns at most {limits.owned} open clubs"
            )
        conn.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(owner_id=target_id))
        _set(conn, club_id, actor_id, Role.ORGANISER)
    _set(conn, club_id, target_id, role)


def _set(conn: Connection, club_id: str, account_id: str, role: Role) -> None:
    conn.execute(
        update(MEMBERS)
        .where(MEMBERS.c.club_id == club_id, MEMBERS.c.account_id == account_id)
        .values(role=role.value)
    )


def close(conn: Connection, club_id: str, actor_id: str, now: int) -> None:
    check_may(Facts(_closed(conn, club_id), role_of(conn, club_id, actor_id)), Act.CLOSE)
    conn.execute(
        update(CLUBS)
        .where(CLUBS.c.id == club_id)
        .values(closed_ms=now, invite_hash=None, invite_expires_ms=None)
    )
    conn.execute(delete(REQUESTS).where(REQUESTS.c.club_id == club_id))
