"""Web Push in SQL: the server's kept keys, browsers' subscriptions, turns told
(``app/notify/service.py``'s ``PushStore``).  A seat's subscriptions are those of the
key that took it and, when an account holds the seat, of every key of that account.

A key keeps at most ``per_key`` subscriptions and an account (its linked keys) at most
``per_account``: saving one drops the oldest beyond those, in the same transaction
(issue 46).  Writes run on the repository's writer (on SQLite, the one writer thread
every move uses).  "Told once" is the primary key of ``push_notices``: of two processes that
try to tell the same turn, one inserts and the other finds the row there.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import ColumnElement, Table, delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from app.notify.service import StoredSubscription
from app.notify.settings import NoticeSettings

from .models import (
    AccountKey,
    DeadlineNotice,
    PushNotice,
    PushSubscriptionRow,
    Room,
    Seat,
    ServerKey,
    table_of,
)
from .notices import NoticeRows
from .outage import outages_as_unavailable
from .repository import RoomRepository

KEYS = table_of(ServerKey)
SUBS = table_of(PushSubscriptionRow)
NOTICES = table_of(PushNotice)
DEADLINE_NOTICES = table_of(DeadlineNotice)
ROOMS = table_of(Room)
SEATS = table_of(Seat)
ACCOUNT_KEYS = table_of(AccountKey)
KEEP_NOTICES_MS = 24 * 3600 * 1000
"""A told turn is remembered a day: long past any lease changing hands."""
KEEP_DEADLINE_NOTICES_MS = 8 * 24 * 3600 * 1000
"""A told deadline warning is remembered longer than the longest time per move (7 days)."""


class PushRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo
        self.settings = NoticeRows(repo)

    @outages_as_unavailable
    async def server_key(self, name: str, made: str, now_ms: int) -> str:
        return await self.repo._run_write(_server_key, name, made, now_ms)

    @outages_as_unavailable
    async def save_subscription(
        self,
        player_hash: str,
        sub: StoredSubscription,
        now_ms: int,
        *,
        per_key: int = 0,
        per_account: int = 0,
    ) -> int:
        return await self.repo._run_write(_save, player_hash, sub, now_ms, per_key, per_account)

    @outages_as_unavailable
    async def drop_subscription(self, endpoint: str, player_hash: str | None = None) -> bool:
        return await self.repo._run_write(_drop, endpoint, player_hash)

    @outages_as_unavailable
    async def seat_subscriptions(
        self, room_id: str, seat: int, limit: int | None = None
    ) -> list[StoredSubscription]:
        # the seat's player key, and every key of the account holding the seat (each
        # device its person signed in on)
        this_seat = (SEATS.c.room_id == room_id) & (SEATS.c.seat == seat)
        key = select(SEATS.c.player_hash).where(this_seat).scalar_subquery()
        account = select(SEATS.c.account_id).where(this_seat).scalar_subquery()
        account_keys = select(ACCOUNT_KEYS.c.player_hash).where(
            ACCOUNT_KEYS.c.account_id == account
        )
        q = select(SUBS.c.endpoint, SUBS.c.p256dh, SUBS.c.auth, SUBS.c.lang).where(
            (SUBS.c.player_hash == key) | SUBS.c.player_hash.in_(account_keys)
        )
        if limit is not None:  # the newest
            q = q.order_by(SUBS.c.id.desc()).limit(limit)
        async with self.repo.sessions() as s:
            rows = sorted((await s.execute(q.add_columns(SUBS.c.id))).all(), key=lambda r: r[4])
        return [{"endpoint": e, "p256dh": p, "auth": a, "lang": lang} for e, p, a, lang, _ in rows]

    @outages_as_unavailable
    async def claim_notice(self, room_id: str, seq: int, seat: int, now_ms: int) -> bool:
        return await self.repo._run_write(_claim, room_id, seq, seat, now_ms)

    async def seat_settings(self, room_id: str, seat: int) -> NoticeSettings:
        return await self.settings.seat_settings(room_id, seat)

    @outages_as_unavailable
    async def claim_deadline(
        self, room_id: str, seq: int, seat: int, hours: int, now_ms: int
    ) -> bool:
        return await self.repo._run_write(_claim_deadline, room_id, seq, seat, hours, now_ms)

    @outages_as_unavailable
    async def room_code(self, room_id: str) -> str | None:
        async with self.repo.sessions() as s:
            q = select(ROOMS.c.code).where(ROOMS.c.id == room_id)
            code = (await s.execute(q)).scalar_one_or_none()
        return None if code is None else str(code)


def _insert_new(conn: Connection, table: Table, values: Mapping[str, object]) -> bool:
    """Insert unless the primary key (or a unique key) is taken; True if inserted."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    res = conn.execute(dialect.insert(table).values(**values).on_conflict_do_nothing())
    return bool(res.rowcount)


def _server_key(conn: Connection, name: str, made: str, now_ms: int) -> str:
    # of two processes starting at once, the first insert wins and both read it
    _insert_new(conn, KEYS, {"name": name, "value": made, "created_ms": now_ms})
    return str(conn.execute(select(KEYS.c.value).where(KEYS.c.name == name)).scalar_one())


def _save(
    conn: Connection,
    player_hash: str,
    sub: StoredSubscription,
    now_ms: int,
    per_key: int,
    per_account: int,
) -> int:
    # a browser re-subscribing (or another key taking the browser) replaces the row
    conn.execute(delete(SUBS).where(SUBS.c.endpoint == sub["endpoint"]))
    conn.execute(insert(SUBS).values(player_hash=player_hash, created_ms=now_ms, **sub))
    dropped = _keep_newest(conn, SUBS.c.player_hash == player_hash, per_key)
    account = conn.execute(
        select(ACCOUNT_KEYS.c.account_id).where(ACCOUNT_KEYS.c.player_hash == player_hash)
    ).scalar_one_or_none()
    if account is not None:
        keys = select(ACCOUNT_KEYS.c.player_hash).where(ACCOUNT_KEYS.c.account_id == account)
        dropped += _keep_newest(conn, SUBS.c.player_hash.in_(keys), per_account)
    return dropped


def _keep_newest(conn: Connection, which: ColumnElement[bool], keep: int) -> int:
    """Delete all but the newest ``keep`` subscriptions ``which`` selects (0: keep all)."""
    if keep <= 0:
        return 0
    q = select(SUBS.c.id).where(which).order_by(SUBS.c.id.desc()).offset(keep)
    old = [row[0] for row in conn.execute(q)]
    if old:
        conn.execute(delete(SUBS).where(SUBS.c.id.in_(old)))
    return len(old)


def _drop(conn: Connection, endpoint: str, player_hash: str | None) -> bool:
    q = delete(SUBS).where(SUBS.c.endpoint == endpoint)
    if player_hash is not None:
        q = q.where(SUBS.c.player_hash == player_hash)
    return bool(conn.execute(q).rowcount)


def _claim(conn: Connection, room_id: str, seq: int, seat: int, now_ms: int) -> bool:
    conn.execute(delete(NOTICES).where(NOTICES.c.at_ms < now_ms - KEEP_NOTICES_MS))
    row = {"room_id": room_id, "seq": seq, "seat": seat, "at_ms": now_ms}
    return _insert_new(conn, NOTICES, row)


def _claim_deadline(
    conn: Connection, room_id: str, seq: int, seat: int, hours: int, now_ms: int
) -> bool:
    old = DEADLINE_NOTICES.c.at_ms < now_ms - KEEP_DEADLINE_NOTICES_MS
    conn.execute(delete(DEADLINE_NOTICES).where(old))
    row = {"room_id": room_id, "seq": seq, "seat": seat, "hours": hours, "at_ms": now_ms}
    return _insert_new(conn, DEADLINE_NOTICES, row)
