"""Email addresses, digests claimed and the games a digest lists, in SQL
(``app/notify/email.py``'s ``EmailStore``).

"One digest a day" is the primary key of ``email_digests`` (address, day): of any
number of processes claiming it, one inserts the row and sends.  The games waiting
are read from ``room_deadlines`` (app/db/deadlines.py): the rooms whose ``move`` row
names a seat of the owner (its player key, or its account and every key of it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from app.notify.email import DigestTarget, StoredAddress, WaitingGame

from .deadlines import DeadlineReads
from .models import (
    AccountKey,
    EmailAddressRow,
    EmailDigest,
    NoticeSettingRow,
    Room,
    table_of,
)
from .outage import outages_as_unavailable
from .push import _insert_new
from .repository import RoomRepository

ADDRESSES = table_of(EmailAddressRow)
DIGESTS = table_of(EmailDigest)
SETTINGS = table_of(NoticeSettingRow)
ACCOUNT_KEYS = table_of(AccountKey)
ROOMS = table_of(Room)
KEEP_DIGESTS_MS = 3 * 24 * 3600 * 1000
"""A day's claim is kept past the day (and any clock skew between processes)."""


def _stored(r: Any) -> StoredAddress:
    """A row of ``email_addresses`` (any Row with its columns)."""
    confirmed = None if r.confirmed_ms is None else int(r.confirmed_ms)
    return StoredAddress(
        str(r.address), str(r.lang), int(r.created_ms), confirmed, str(r.unsubscribe_token)
    )


class EmailRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo
        self.deadlines = DeadlineReads(repo.sessions)

    async def _one(self, where: ColumnElement[bool]) -> StoredAddress | None:
        async with self.repo.sessions() as s:
            row = (await s.execute(select(ADDRESSES).where(where).limit(1))).first()
        return None if row is None else _stored(row)

    @outages_as_unavailable
    async def address_of(self, owner: str) -> StoredAddress | None:
        return await self._one(ADDRESSES.c.owner == owner)

    @outages_as_unavailable
    async def confirmations_since(self, address: str, since_ms: int) -> int:
        q = select(func.count()).where(
            ADDRESSES.c.address == address, ADDRESSES.c.created_ms >= since_ms
        )
        async with self.repo.sessions() as s:
            return int((await s.execute(q)).scalar_one())

    @outages_as_unavailable
    async def save_address(
        self,
        owner: str,
        address: str,
        lang: str,
        confirm_hash: str,
        unsubscribe_token: str,
        now_ms: int,
    ) -> None:
        row = {
            "owner": owner,
            "address": address,
            "lang": lang,
            "confirm_hash": confirm_hash,
            "unsubscribe_token": unsubscribe_token,
            "created_ms": now_ms,
            "confirmed_ms": None,
        }
        await self.repo._run_write(_replace, owner, row)

    @outages_as_unavailable
    async def confirm(self, confirm_hash: str, now_ms: int) -> StoredAddress | None:
        return await self.repo._run_write(_confirm, confirm_hash, now_ms)

    @outages_as_unavailable
    async def by_unsubscribe(self, token: str) -> StoredAddress | None:
        return await self._one(ADDRESSES.c.unsubscribe_token == token)

    @outages_as_unavailable
    async def unsubscribe(self, token: str) -> bool:
        return await self.repo._run_write(_unsubscribe, token)

    @outages_as_unavailable
    async def forget(self, owner: str) -> bool:
        return await self.repo._run_write(_forget, owner)

    @outages_as_unavailable
    async def digest_targets(self, day: str) -> list[DigestTarget]:
        claimed = select(DIGESTS.c.address).where(DIGESTS.c.day == day)
        digest_off = select(SETTINGS.c.owner).where(SETTINGS.c.digest.is_(False))
        q = (
            select(ADDRESSES)
            .where(
                ADDRESSES.c.confirmed_ms.is_not(None),
                ADDRESSES.c.address.not_in(claimed),
                ADDRESSES.c.owner.not_in(digest_off),
            )
            .order_by(ADDRESSES.c.address, ADDRESSES.c.owner)
        )
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        targets: dict[str, DigestTarget] = {}
        for r in rows:
            target = targets.setdefault(
                r.address, DigestTarget(r.address, r.lang, r.unsubscribe_token)
            )
            target.owners.append(r.owner)
        return list(targets.values())

    @outages_as_unavailable
    async def waiting_games(self, owners: list[str]) -> list[WaitingGame]:
        accounts = [o[2:] for o in owners if o.startswith("a:")]
        hashes = [o[2:] for o in owners if o.startswith("k:")]
        if accounts:
            q = select(ACCOUNT_KEYS.c.player_hash).where(ACCOUNT_KEYS.c.account_id.in_(accounts))
            async with self.repo.sessions() as s:
                hashes += list((await s.execute(q)).scalars())
        rows = list(await self.deadlines.waiting_for(hashes)) if hashes else []
        for account_id in accounts:
            rows += await self.deadlines.waiting_for((), account_id)
        seen: dict[str, int] = {}
        for row in rows:  # a room once, at its soonest deadline for this person
            seen[row.room_id] = min(row.due_ms, seen.get(row.room_id, row.due_ms))
        if not seen:
            return []
        q = select(ROOMS.c.id, ROOMS.c.code).where(ROOMS.c.id.in_(list(seen)))
        async with self.repo.sessions() as s:
            codes: dict[str, str] = {
                str(rid): str(code) for rid, code in (await s.execute(q)).all()
            }
        games = [WaitingGame(rid, str(codes.get(rid, "")), due) for rid, due in seen.items()]
        return sorted(games, key=lambda g: (g.due_ms, g.room_id))

    @outages_as_unavailable
    async def claim_digest(self, address: str, day: str, now_ms: int) -> bool:
        return await self.repo._run_write(_claim_digest, address, day, now_ms)


def _replace(conn: Connection, owner: str, row: dict[str, object]) -> None:
    conn.execute(delete(ADDRESSES).where(ADDRESSES.c.owner == owner))
    conn.execute(insert(ADDRESSES).values(**row))


def _confirm(conn: Connection, confirm_hash: str, now_ms: int) -> StoredAddress | None:
    this = ADDRESSES.c.confirm_hash == confirm_hash
    row = conn.execute(select(ADDRESSES).where(this)).first()
    if row is None:
        return None
    conn.execute(update(ADDRESSES).where(this).values(confirm_hash=None, confirmed_ms=now_ms))
    return _stored(row)


def _unsubscribe(conn: Connection, token: str) -> bool:
    q = select(ADDRESSES.c.address).where(ADDRESSES.c.unsubscribe_token == token)
    address = conn.execute(q).scalar_one_or_none()
    if address is None:
        return False
    conn.execute(delete(ADDRESSES).where(ADDRESSES.c.address == address))
    return True


def _forget(conn: Connection, owner: str) -> bool:
    return bool(conn.execute(delete(ADDRESSES).where(ADDRESSES.c.owner == owner)).rowcount)


def _claim_digest(conn: Connection, address: str, day: str, now_ms: int) -> bool:
    conn.execute(delete(DIGESTS).where(DIGESTS.c.sent_ms < now_ms - KEEP_DIGESTS_MS))
    return _insert_new(conn, DIGESTS, {"address": address, "day": day, "sent_ms": now_ms})
