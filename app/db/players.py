"""Player keys on seats and one-time seat transfers, in SQL (``app/players/players.py``
decides; this only reads and writes).

Every write is one transaction on the repository's writer (on SQLite, the one
writer thread every move uses), so a claim that marks a code used and gives its
seat a new token is all or nothing: a code can move a seat once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, delete, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from app.players.players import Claim

from .models import Seat, Transfer, table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository

KEEP_USED_MS = 24 * 3600 * 1000
"""Used and expired codes are kept a day (to answer "already used" rather than "no such
code"), then dropped by the next transfer made."""

SEATS = table_of(Seat)
TRANSFERS = table_of(Transfer)


class PlayerRows:
    """The ``PlayerStore`` of ``app/players/players.py`` on the repository's database."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def link_seat(self, room_id: str, seat: int, token_hash: str, player_hash: str) -> bool:
        """Mark the seat held with this token as the player's; False if no such seat."""
        return await self.repo._run_write(_link, room_id, seat, token_hash, player_hash)

    @outages_as_unavailable
    async def create_transfer(
        self,
        room_id: str,
        token_hash: str,
        code_hash: str,
        sealed: str | None,
        expires_ms: int,
        now_ms: int,
        player_hash: str | None,
    ) -> int | None:
        """Store a transfer code for the seat this token holds; returns the seat, or None
        when the token holds no seat of the room."""
        return await self.repo._run_write(
            _create, room_id, token_hash, code_hash, sealed, expires_ms, now_ms, player_hash
        )

    @outages_as_unavailable
    async def claim_transfer(self, code_hash: str, now_ms: int, token_hash: str) -> Claim:
        """Use a code once: give its seat the new token; the sealed key is handed over
        and forgotten."""
        return await self.repo._run_write(_claim, code_hash, now_ms, token_hash)

    @outages_as_unavailable
    async def reclaim_seat(
        self,
        room_id: str,
        player_hashes: Sequence[str],
        token_hash: str,
        account_id: str | None = None,
    ) -> int | None:
        """Give the seat these keys (or this account) hold in the room a new token; None
        when they hold none."""
        return await self.repo._run_write(
            _reclaim, room_id, list(player_hashes), token_hash, account_id
        )

    @outages_as_unavailable
    async def seat_held(
        self, room_id: str, player_hashes: Sequence[str], account_id: str | None = None
    ) -> int | None:
        """The seat these keys (or this account) hold in the room, unchanged; None when
        they hold none (issue 47: a player's own seat on every device)."""
        async with self.repo.sessions() as s:
            seat = await s.scalar(_held(room_id, list(player_hashes), account_id))
        return None if seat is None else int(seat)

    @outages_as_unavailable
    async def seat_player(self, room_id: str, seat: int) -> str | None:
        """The player hash stored on a seat (for tests and the admin's curiosity)."""
        async with self.repo.sessions() as s:
            return await s.scalar(
                select(Seat.player_hash).where(Seat.room_id == room_id, Seat.seat == seat)
            )


def _link(conn: Connection, room_id: str, seat: int, token_hash: str, player_hash: str) -> bool:
    res = conn.execute(
        update(SEATS)
        .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat, SEATS.c.token_hash == token_hash)
        .values(player_hash=player_hash)
    )
    return bool(res.rowcount)


def _seat_of_token(conn: Connection, room_id: str, token_hash: str) -> Any:
    return conn.execute(
        select(SEATS.c.seat, SEATS.c.player_hash).where(
            SEATS.c.room_id == room_id, SEATS.c.token_hash == token_hash
        )
    ).first()


def _create(
    conn: Connection,
    room_id: str,
    token_hash: str,
    code_hash: str,
    sealed: str | None,
    expires_ms: int,
    now_ms: int,
    player_hash: str | None,
) -> int | None:
    row = _seat_of_token(conn, room_id, token_hash)
    if row is None:
        return None
    seat, linked = row
    if player_hash is not None and linked is None:
        _link(conn, room_id, seat, token_hash, player_hash)
    conn.execute(delete(TRANSFERS).where(TRANSFERS.c.expires_ms < now_ms - KEEP_USED_MS))
    conn.execute(
        insert(TRANSFERS).values(
            code_hash=code_hash,
            room_id=room_id,
            seat=seat,
            sealed=sealed,
            expires_ms=expires_ms,
            used_ms=None,
        )
    )
    return int(seat)


def _claim(conn: Connection, code_hash: str, now_ms: int, token_hash: str) -> Claim:
    row = conn.execute(select(TRANSFERS).where(TRANSFERS.c.code_hash == code_hash)).first()
    if row is None:
        return Claim("not_found")
    if row.used_ms is not None:
        return Claim("used")
    if row.expires_ms < now_ms:
        return Claim("expired")
    used = conn.execute(
        update(TRANSFERS)
        .where(TRANSFERS.c.code_hash == code_hash, TRANSFERS.c.used_ms.is_(None))
        .values(used_ms=now_ms, sealed=None)
    )
    if used.rowcount != 1:  # another claim got there first
        return Claim("used")
    moved = conn.execute(
        update(SEATS)
        .where(SEATS.c.room_id == row.room_id, SEATS.c.seat == row.seat)
        .values(token_hash=token_hash)
    )
    if moved.rowcount != 1:
        return Claim("not_found")
    return Claim("ok", row.room_id, int(row.seat), row.sealed)


def _held(room_id: str, player_hashes: list[str], account_id: str | None) -> Select[Any]:
    """The first person's seat of the room these key hashes or this account hold."""
    held_by: ColumnElement[bool] = SEATS.c.player_hash.in_(player_hashes)
    if account_id is not None:
        held_by = or_(held_by, SEATS.c.account_id == account_id)
    return (
        select(SEATS.c.seat)
        .where(SEATS.c.room_id == room_id, held_by, SEATS.c.bot.is_(False))
        .order_by(SEATS.c.seat)
        .limit(1)
    )


def _reclaim(
    conn: Connection,
    room_id: str,
    player_hashes: list[str],
    token_hash: str,
    account_id: str | None,
) -> int | None:
    seat = conn.execute(_held(room_id, player_hashes, account_id)).scalar()
    if seat is None:
        return None
    conn.execute(
        update(SEATS)
        .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
        .values(token_hash=token_hash)
    )
    return int(seat)
