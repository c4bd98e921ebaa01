"""Personal access tokens and bot accounts in SQL (issue 51): the ``TokenStore`` of
app/accounts/token_store.py (the service decides; this only reads and writes).

Writes go through the repository's writer, one transaction each: the count of an
account's live tokens and the new one are one transaction, so two requests at once
cannot both pass the cap on SQLite's one writer; on PostgreSQL the account's row is
locked first for the same reason.
"""

from __future__ import annotations

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from app.accounts.store import AccountRow
from app.accounts.token_store import BotRow, TokenRow

from .models import Account, RatingResult, Room, Seat, table_of
from .outage import outages_as_unavailable
from .people_models import AccessToken
from .repository import RoomRepository

TOKENS = table_of(AccessToken)
ACCOUNTS = table_of(Account)
LIVE_ROOMS = ("waiting", "playing")


def _token(t: AccessToken) -> TokenRow:
    return TokenRow(
        t.id, t.account_id, t.name, tuple(t.scopes.split()), t.created_ms, t.last_used_ms,
        t.revoked_ms,
    )  # fmt: skip


class AccessTokenRows:
    """The tokens' store on the repository's database."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def add_token(self, row: TokenRow, token_hash: str, most: int) -> bool:
        return await self.repo._run_write(_add_token, row, token_hash, most)

    @outages_as_unavailable
    async def live_tokens(self, account_id: str) -> list[TokenRow]:
        async with self.repo.sessions() as s:
            found = await s.scalars(
                select(AccessToken)
                .where(AccessToken.account_id == account_id, AccessToken.revoked_ms.is_(None))
                .order_by(AccessToken.created_ms, AccessToken.id)
            )
            return [_token(t) for t in found]

    @outages_as_unavailable
    async def revoke(self, account_id: str, token_id: str, now_ms: int) -> bool:
        return await self.repo._run_write(_revoke, account_id, token_id, now_ms)

    @outages_as_unavailable
    async def by_hash(self, token_hash: str) -> tuple[TokenRow, AccountRow] | None:
        async with self.repo.sessions() as s:
            found = (
                await s.execute(
                    select(AccessToken, Account)
                    .join(Account, Account.id == AccessToken.account_id)
                    .where(
                        AccessToken.token_hash == token_hash,
                        AccessToken.revoked_ms.is_(None),
                        Account.deleted_ms.is_(None),
                        Account.username.is_not(None),
                    )
                )
            ).first()
        if found is None:
            return None
        token, a = found
        account = AccountRow(a.id, a.username, a.password_hash, a.created_ms, a.bot_since_ms)
        return _token(token), account

    @outages_as_unavailable
    async def touch(self, token_id: str, now_ms: int, older_than_ms: int) -> None:
        await self.repo._run_write(_touch, token_id, now_ms, older_than_ms)

    @outages_as_unavailable
    async def make_bot(self, account_id: str, now_ms: int) -> int | None:
        return await self.repo._run_write(_make_bot, account_id, now_ms)

    @outages_as_unavailable
    async def bots(self, limit: int) -> list[BotRow]:
        last = func.max(AccessToken.last_used_ms)
        q = (
            select(Account.username, Account.bot_since_ms, last)
            .outerjoin(AccessToken, AccessToken.account_id == Account.id)
            .where(
                Account.bot_since_ms.is_not(None),
                Account.deleted_ms.is_(None),
                Account.username.is_not(None),
            )
            .group_by(Account.id, Account.username, Account.bot_since_ms)
            .order_by(func.coalesce(last, -1).desc(), Account.username)
            .limit(limit)
        )
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        return [BotRow(str(name), int(since or 0), used) for name, since, used in rows]


def _add_token(conn: Connection, row: TokenRow, token_hash: str, most: int) -> bool:
    if conn.dialect.name == "postgresql":  # two creations at once count one after the other
        conn.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.id == row.account_id).with_for_update())
    live = conn.execute(
        select(func.count())
        .select_from(TOKENS)
        .where(TOKENS.c.account_id == row.account_id, TOKENS.c.revoked_ms.is_(None))
    ).scalar_one()
    if live >= most:
        return False
    conn.execute(
        insert(TOKENS).values(
            id=row.id,
            account_id=row.account_id,
            name=row.name,
            token_hash=token_hash,
            scopes=" ".join(row.scopes),
            created_ms=row.created_ms,
            last_used_ms=None,
            revoked_ms=None,
        )
    )
    return True


def _revoke(conn: Connection, account_id: str, token_id: str, now_ms: int) -> bool:
    res = conn.execute(
        update(TOKENS)
        .where(
            TOKENS.c.id == token_id,
            TOKENS.c.account_id == account_id,
            TOKENS.c.revoked_ms.is_(None),
        )
        .values(revoked_ms=now_ms)
    )
    return bool(res.rowcount)


def _touch(conn: Connection, token_id: str, now_ms: int, older_than_ms: int) -> None:
    conn.execute(
        update(TOKENS)
        .where(
            TOKENS.c.id == token_id,
            (TOKENS.c.last_used_ms.is_(None)) | (TOKENS.c.last_used_ms < older_than_ms),
        )
        .values(last_used_ms=now_ms)
    )


def _has_rated_games(conn: Connection, account_id: str) -> bool:
    results = table_of(RatingResult)
    rated = conn.execute(
        select(results.c.room_id).where(results.c.account_id == account_id).limit(1)
    ).first()
    if rated is not None:
        return True
    # a seat of a live rated room: its match is not rated yet, but will be
    rooms, seats = table_of(Room), table_of(Seat)
    live = conn.execute(
        select(rooms.c.options)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(seats.c.account_id == account_id, rooms.c.status.in_(LIVE_ROOMS))
    )
    return any(bool((options or {}).get("rated")) for (options,) in live)


def _make_bot(conn: Connection, account_id: str, now_ms: int) -> int | None:
    since = conn.execute(
        select(ACCOUNTS.c.bot_since_ms).where(ACCOUNTS.c.id == account_id)
    ).scalar_one_or_none()
    if since is not None:
        return int(since)
    if _has_rated_games(conn, account_id):  # read in the same transaction as the change
        return None
    conn.execute(
        update(ACCOUNTS)
        .where(ACCOUNTS.c.id == account_id, ACCOUNTS.c.bot_since_ms.is_(None))
        .values(bot_since_ms=now_ms)
    )
    return now_ms
