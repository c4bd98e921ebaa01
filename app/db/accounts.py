"""Accounts in SQL: the ``AccountStore`` of ``app/accounts/store.py`` (the service
decides; this only reads and writes).

Writes go through the repository's writer, one transaction each (on SQLite the one
writer thread every move uses), so a name is taken once and a deletion is all or
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from app.accounts.store import AccountRow, Failures, StoredData
from app.names import name_key

from .club_leaving import leave_clubs
from .models import (
    Account,
    AccountKey,
    AccountSession,
    EmailAddressRow,
    ExternalIdentity,
    NoticeSettingRow,
    Seat,
    ServerKey,
    SignInFailure,
    table_of,
)
from .outage import outages_as_unavailable
from .people_models import AccessToken
from .repository import RoomRepository

ACCOUNTS = table_of(Account)
SESSIONS = table_of(AccountSession)
KEYS = table_of(AccountKey)
IDENTITIES = table_of(ExternalIdentity)
FAILURES = table_of(SignInFailure)
SEATS = table_of(Seat)
EMAILS = table_of(EmailAddressRow)
NOTICE_SETTINGS = table_of(NoticeSettingRow)
SERVER_KEYS = table_of(ServerKey)
TOKENS = table_of(AccessToken)


def _row(a: Account | None) -> AccountRow | None:
    if a is None:
        return None
    return AccountRow(a.id, a.username, a.password_hash, a.created_ms, a.bot_since_ms)


class AccountRows:
    """The accounts' store on the repository's database."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def create_account(
        self,
        account_id: str,
        username: str,
        username_key: str,
        password_hash: str | None,
        now_ms: int,
        identity: tuple[str, str] | None = None,
    ) -> None:
        await self.repo._run_write(
            _create, account_id, username, username_key, password_hash, now_ms, identity
        )

    @outages_as_unavailable
    async def account_by_name(self, username_key: str) -> AccountRow | None:
        async with self.repo.sessions() as s:
            return _row(await s.scalar(select(Account).where(Account.username_key == username_key)))

    @outages_as_unavailable
    async def account_by_skeleton(self, skeleton: str) -> AccountRow | None:
        async with self.repo.sessions() as s:
            return _row(
                await s.scalar(select(Account).where(Account.username_skeleton == skeleton))
            )

    @outages_as_unavailable
    async def account_by_identity(self, issuer: str, subject: str) -> AccountRow | None:
        async with self.repo.sessions() as s:
            return _row(
                await s.scalar(
                    select(Account)
                    .join(ExternalIdentity, ExternalIdentity.account_id == Account.id)
                    .where(ExternalIdentity.issuer == issuer, ExternalIdentity.subject == subject)
                )
            )

    @outages_as_unavailable
    async def create_session(
        self, token_hash: str, account_id: str, now_ms: int, expires_ms: int
    ) -> None:
        await self.repo._run_write(_create_session, token_hash, account_id, now_ms, expires_ms)

    @outages_as_unavailable
    async def session_account(self, token_hash: str, now_ms: int) -> AccountRow | None:
        async with self.repo.sessions() as s:
            return _row(
                await s.scalar(
                    select(Account)
                    .join(AccountSession, AccountSession.account_id == Account.id)
                    .where(
                        AccountSession.token_hash == token_hash,
                        AccountSession.expires_ms > now_ms,
                    )
                )
            )

    @outages_as_unavailable
    async def delete_session(self, token_hash: str) -> None:
        await self.repo._run_write(_delete_session, token_hash)

    @outages_as_unavailable
    async def delete_sessions(self, account_id: str) -> int:
        return await self.repo._run_write(_delete_sessions, account_id)

    @outages_as_unavailable
    async def link_key(self, account_id: str, player_hash: str, now_ms: int) -> int:
        return await self.repo._run_write(_link_key, account_id, player_hash, now_ms)

    @outages_as_unavailable
    async def link_seat(self, room_id: str, seat: int, token_hash: str, account_id: str) -> bool:
        return await self.repo._run_write(_link_seat, room_id, seat, token_hash, account_id)

    @outages_as_unavailable
    async def failures(self, scopes: Sequence[str], since_ms: int) -> dict[str, Failures]:
        async with self.repo.sessions() as s:
            rows = (
                await s.execute(
                    select(SignInFailure.scope, func.count(), func.min(SignInFailure.at_ms))
                    .where(SignInFailure.scope.in_(list(scopes)), SignInFailure.at_ms > since_ms)
                    .group_by(SignInFailure.scope)
                )
            ).all()
        return {scope: Failures(int(n), int(oldest)) for scope, n, oldest in rows}

    @outages_as_unavailable
    async def add_failure(self, scopes: Sequence[str], now_ms: int, forget_before_ms: int) -> None:
        await self.repo._run_write(_add_failure, list(scopes), now_ms, forget_before_ms)

    @outages_as_unavailable
    async def clear_failures(self, scope: str) -> None:
        await self.repo._run_write(_clear_failures, scope)

    @outages_as_unavailable
    async def server_key(self, name: str, made: str, now_ms: int) -> str:
        return await self.repo._run_write(_server_key, name, made, now_ms)

    @outages_as_unavailable
    async def stored_data(self, account_id: str) -> StoredData:
        async with self.repo.sessions() as s:
            sessions = (
                await s.execute(
                    select(AccountSession.created_ms, AccountSession.expires_ms)
                    .where(AccountSession.account_id == account_id)
                    .order_by(AccountSession.created_ms)
                )
            ).all()
            identities = (
                await s.execute(
                    select(
                        ExternalIdentity.issuer,
                        ExternalIdentity.subject,
                        ExternalIdentity.created_ms,
                    ).where(ExternalIdentity.account_id == account_id)
                )
            ).all()
            keys = (
                await s.execute(
                    select(AccountKey.player_hash, AccountKey.linked_ms)
                    .where(AccountKey.account_id == account_id)
                    .order_by(AccountKey.linked_ms)
                )
            ).all()
            tokens = (
                await s.scalars(
                    select(AccessToken)
                    .where(AccessToken.account_id == account_id)
                    .order_by(AccessToken.created_ms, AccessToken.id)
                )
            ).all()
        return {
            "sessions": [{"created_ms": c, "expires_ms": e} for c, e in sessions],
            "identities": [
                {"issuer": i, "subject": sub, "created_ms": c} for i, sub, c in identities
            ],
            "player_keys": [{"player_hash": h, "linked_ms": at} for h, at in keys],
            "access_tokens": [  # what a token is called and may do; never it, nor its hash
                {
                    "id": t.id,
                    "name": t.name,
                    "scopes": t.scopes.split(),
                    "created_ms": t.created_ms,
                    "last_used_ms": t.last_used_ms,
                    "revoked_ms": t.revoked_ms,
                }
                for t in tokens
            ],
        }

    @outages_as_unavailable
    async def delete_account(self, account_id: str, now_ms: int, seat_name: str) -> None:
        await self.repo._run_write(_delete_account, account_id, now_ms, seat_name)

    @outages_as_unavailable
    async def seat_account(self, room_id: str, seat: int) -> str | None:
        """The account stored on a seat (for tests)."""
        async with self.repo.sessions() as s:
            return await s.scalar(
                select(Seat.account_id).where(Seat.room_id == room_id, Seat.seat == seat)
            )


def _create(
    conn: Connection,
    account_id: str,
    username: str,
    username_key: str,
    password_hash: str | None,
    now_ms: int,
    identity: tuple[str, str] | None,
) -> None:
    conn.execute(
        insert(ACCOUNTS).values(
            id=account_id,
            username=username,
            username_key=username_key,
            username_skeleton=name_key(username),  # unique: a look-alike's race is a Conflict
            password_hash=password_hash,
            created_ms=now_ms,
            deleted_ms=None,
        )
    )
    if identity is not None:
        conn.execute(
            insert(IDENTITIES).values(
                issuer=identity[0], subject=identity[1], account_id=account_id, created_ms=now_ms
            )
        )


def _create_session(
    conn: Connection, token_hash: str, account_id: str, now_ms: int, expires_ms: int
) -> None:
    conn.execute(delete(SESSIONS).where(SESSIONS.c.expires_ms < now_ms))
    conn.execute(
        insert(SESSIONS).values(
            token_hash=token_hash, account_id=account_id, created_ms=now_ms, expires_ms=expires_ms
        )
    )


def _delete_session(conn: Connection, token_hash: str) -> None:
    conn.execute(delete(SESSIONS).where(SESSIONS.c.token_hash == token_hash))


def _delete_sessions(conn: Connection, account_id: str) -> int:
    return int(conn.execute(delete(SESSIONS).where(SESSIONS.c.account_id == account_id)).rowcount)


def _link_key(conn: Connection, account_id: str, player_hash: str, now_ms: int) -> int:
    owner = conn.execute(
        select(KEYS.c.account_id).where(KEYS.c.player_hash == player_hash)
    ).scalar()
    if owner is None:
        conn.execute(
            insert(KEYS).values(player_hash=player_hash, account_id=account_id, linked_ms=now_ms)
        )
    elif owner != account_id:  # a shared computer: the key follows whoever signs in last
        conn.execute(
            update(KEYS)
            .where(KEYS.c.player_hash == player_hash)
            .values(account_id=account_id, linked_ms=now_ms)
        )
    moved = conn.execute(
        update(SEATS)
        .where(SEATS.c.player_hash == player_hash, SEATS.c.account_id.is_(None))
        .values(account_id=account_id)
    )
    return int(moved.rowcount)


def _link_seat(conn: Connection, room_id: str, seat: int, token_hash: str, account_id: str) -> bool:
    res = conn.execute(
        update(SEATS)
        .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat, SEATS.c.token_hash == token_hash)
        .values(account_id=account_id)
    )
    return bool(res.rowcount)


def _add_failure(conn: Connection, scopes: list[str], now_ms: int, forget_before_ms: int) -> None:
    conn.execute(delete(FAILURES).where(FAILURES.c.at_ms < forget_before_ms))
    conn.execute(insert(FAILURES), [{"scope": scope, "at_ms": now_ms} for scope in scopes])


def _clear_failures(conn: Connection, scope: str) -> None:
    conn.execute(delete(FAILURES).where(FAILURES.c.scope == scope))


def _server_key(conn: Connection, name: str, made: str, now_ms: int) -> str:
    # of two processes starting at once, the first insert wins and both read it
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    row = {"name": name, "value": made, "created_ms": now_ms}
    conn.execute(dialect.insert(SERVER_KEYS).values(**row).on_conflict_do_nothing())
    q = select(SERVER_KEYS.c.value).where(SERVER_KEYS.c.name == name)
    return str(conn.execute(q).scalar_one())


def _delete_account(conn: Connection, account_id: str, now_ms: int, seat_name: str) -> None:
    for table in (SESSIONS, KEYS, IDENTITIES, TOKENS):
        conn.execute(delete(table).where(table.c.account_id == account_id))
    leave_clubs(conn, account_id, now_ms)
    # its email address and notice settings (issue 32; keyed by owner, app/notify/settings.py)
    for table in (EMAILS, NOTICE_SETTINGS):
        conn.execute(delete(table).where(table.c.owner == f"a:{account_id}"))
    conn.execute(
        update(SEATS)
        .where(SEATS.c.account_id == account_id)
        .values(name=seat_name, player_hash=None)
    )
    conn.execute(
        update(ACCOUNTS)
        .where(ACCOUNTS.c.id == account_id)
        .values(
            username=None,
            username_key=None,
            username_skeleton=None,
            password_hash=None,
            deleted_ms=now_ms,
        )
    )
