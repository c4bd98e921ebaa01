"""The bot stream's rows and the challenges between bots in SQL (issue 51): the
``BotPlayStore`` of app/botplay/store.py (the service decides; this only reads and
writes).  A stream's admission counts and inserts in one transaction, as a
challenge's does (on PostgreSQL the account's row is locked first, so that two at
once count one after the other)."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from app.botplay.store import BotAccountRow, ChallengeRow, ChallengeState, GameRow, Poll

from .botplay_models import BotChallenge, BotStreamRow
from .models import Account, Room, Seat, table_of
from .outage import outages_as_unavailable
from .people_models import AccessToken
from .repository import RoomRepository

STREAMS = table_of(BotStreamRow)
CHALLENGES = table_of(BotChallenge)
ACCOUNTS = table_of(Account)
LIVE_ROOMS = ("waiting", "playing")
GAMES_LISTED = 200


def _challenge(c: BotChallenge, from_name: str, to_name: str) -> ChallengeRow:
    state: ChallengeState = c.state  # type: ignore[assignment]  # written from the Literal
    return ChallengeRow(
        c.id, c.from_account, from_name, c.to_account, to_name, c.players, c.rules, c.bots,
        c.made_ms, c.expires_ms, state, c.room_id,
    )  # fmt: skip


class BotPlayRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def open_stream(
        self, stream_id: str, account_id: str, token_id: str, now_ms: int, most: int, stale_ms: int
    ) -> bool:
        return await self.repo._run_write(
            _open_stream, stream_id, account_id, token_id, now_ms, most, stale_ms
        )

    @outages_as_unavailable
    async def renew_stream(self, stream_id: str, now_ms: int) -> None:
        stmt = update(STREAMS).where(STREAMS.c.id == stream_id).values(seen_ms=now_ms)
        await self.repo._run_write(lambda conn: conn.execute(stmt))

    @outages_as_unavailable
    async def close_stream(self, stream_id: str) -> None:
        stmt = delete(STREAMS).where(STREAMS.c.id == stream_id)
        await self.repo._run_write(lambda conn: conn.execute(stmt))

    @outages_as_unavailable
    async def online(self, account_id: str, since_ms: int) -> bool:
        async with self.repo.sessions() as s:
            found = await s.scalar(
                select(BotStreamRow.id)
                .where(BotStreamRow.account_id == account_id, BotStreamRow.seen_ms >= since_ms)
                .limit(1)
            )
        return found is not None

    @outages_as_unavailable
    async def poll(self, account_id: str, token_id: str, now_ms: int) -> Poll:
        async with self.repo.sessions() as s:
            live = await s.scalar(
                select(AccessToken.id)
                .join(Account, Account.id == AccessToken.account_id)
                .where(
                    AccessToken.id == token_id,
                    AccessToken.account_id == account_id,
                    AccessToken.revoked_ms.is_(None),
                    Account.deleted_ms.is_(None),
                )
            )
            if live is None:
                return Poll(False, [], [])
            games = (
                await s.execute(
                    select(Room.id, Seat.seat, Room.code)
                    .join(Seat, Seat.room_id == Room.id)
                    .where(Seat.account_id == account_id, Room.status.in_(LIVE_ROOMS))
                    .order_by(Room.created_at, Room.id)
                    .limit(GAMES_LISTED)
                )
            ).all()
            maker = select(Account.username).where(Account.id == BotChallenge.from_account)
            challenges = (
                await s.execute(
                    select(BotChallenge, maker.scalar_subquery())
                    .where(
                        BotChallenge.to_account == account_id,
                        BotChallenge.state == "open",
                        BotChallenge.expires_ms > now_ms,
                    )
                    .order_by(BotChallenge.made_ms, BotChallenge.id)
                )
            ).all()
        return Poll(
            True,
            [GameRow(str(r), int(seat), str(code)) for r, seat, code in games],
            [_challenge(c, str(name or ""), "") for c, name in challenges],
        )

    @outages_as_unavailable
    async def account_named(self, username_key: str) -> BotAccountRow | None:
        async with self.repo.sessions() as s:
            a = await s.scalar(
                select(Account).where(
                    Account.username_key == username_key, Account.deleted_ms.is_(None)
                )
            )
        if a is None or a.username is None:
            return None
        return BotAccountRow(a.id, a.username, a.created_ms, a.bot_since_ms)

    @outages_as_unavailable
    async def add_challenge(self, row: ChallengeRow, most_open: int, most_pair: int) -> bool:
        return await self.repo._run_write(_add_challenge, row, most_open, most_pair)

    @outages_as_unavailable
    async def move_challenge(
        self,
        challenge_id: str,
        account_id: str,
        side: Literal["from", "to"],
        before: ChallengeState,
        after: ChallengeState,
        now_ms: int,
    ) -> ChallengeRow | None:
        return await self.repo._run_write(
            _move_challenge, challenge_id, account_id, side, before, after, now_ms
        )

    @outages_as_unavailable
    async def set_room(self, challenge_id: str, room_id: str) -> None:
        stmt = update(CHALLENGES).where(CHALLENGES.c.id == challenge_id).values(room_id=room_id)
        await self.repo._run_write(lambda conn: conn.execute(stmt))


def _lock_account(conn: Connection, account_id: str) -> None:
    if conn.dialect.name == "postgresql":  # two at once count one after the other
        conn.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.id == account_id).with_for_update())


def _open_stream(
    conn: Connection,
    stream_id: str,
    account_id: str,
    token_id: str,
    now_ms: int,
    most: int,
    stale_ms: int,
) -> bool:
    _lock_account(conn, account_id)
    conn.execute(
        delete(STREAMS).where(STREAMS.c.account_id == account_id, STREAMS.c.seen_ms < stale_ms)
    )
    count = select(func.count()).select_from(STREAMS).where(STREAMS.c.account_id == account_id)
    if conn.execute(count).scalar_one() >= most:
        return False
    conn.execute(
        insert(STREAMS).values(
            id=stream_id, account_id=account_id, token_id=token_id, opened_ms=now_ms, seen_ms=now_ms
        )
    )
    return True


KEPT_MS = 86_400_000
"""A challenge's row is kept a day past its expiry (long after any stream told it)."""


def _add_challenge(conn: Connection, row: ChallengeRow, most_open: int, most_pair: int) -> bool:
    _lock_account(conn, row.from_account)
    # the maker's challenges expired a day ago go as it makes another: its rows stay
    # those of its last day, however long it runs
    conn.execute(
        delete(CHALLENGES).where(
            CHALLENGES.c.from_account == row.from_account,
            CHALLENGES.c.expires_ms < row.made_ms - KEPT_MS,
        )
    )
    mine = (
        CHALLENGES.c.from_account == row.from_account,
        CHALLENGES.c.state == "open",
        CHALLENGES.c.expires_ms > row.made_ms,
    )
    count = select(func.count()).select_from(CHALLENGES)
    if conn.execute(count.where(*mine)).scalar_one() >= most_open:
        return False
    pair = conn.execute(count.where(*mine, CHALLENGES.c.to_account == row.to_account))
    if pair.scalar_one() >= most_pair:
        return False
    conn.execute(
        insert(CHALLENGES).values(
            id=row.id,
            from_account=row.from_account,
            to_account=row.to_account,
            players=row.players,
            rules=row.rules,
            bots=row.bots,
            made_ms=row.made_ms,
            expires_ms=row.expires_ms,
            state=row.state,
            room_id=None,
        )
    )
    return True


def _move_challenge(
    conn: Connection,
    challenge_id: str,
    account_id: str,
    side: Literal["from", "to"],
    before: ChallengeState,
    after: ChallengeState,
    now_ms: int,
) -> ChallengeRow | None:
    whose = CHALLENGES.c.from_account if side == "from" else CHALLENGES.c.to_account
    where = [CHALLENGES.c.id == challenge_id, whose == account_id, CHALLENGES.c.state == before]
    if before == "open":
        where.append(CHALLENGES.c.expires_ms > now_ms)
    if not conn.execute(update(CHALLENGES).where(*where).values(state=after)).rowcount:
        return None
    c = conn.execute(select(CHALLENGES).where(CHALLENGES.c.id == challenge_id)).one()
    names = dict(
        conn.execute(
            select(ACCOUNTS.c.id, ACCOUNTS.c.username).where(
                ACCOUNTS.c.id.in_([c.from_account, c.to_account])
            )
        ).all()
    )
    state: ChallengeState = c.state
    return ChallengeRow(
        c.id, c.from_account, str(names.get(c.from_account) or ""), c.to_account,
        str(names.get(c.to_account) or ""), c.players, c.rules, c.bots, c.made_ms,
        c.expires_ms, state, c.room_id,
    )  # fmt: skip
