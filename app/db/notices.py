"""Notice settings in SQL (``app/notify/settings.py``'s stores): an owner's choice, and
the choice that decides for a seat.

A seat's owners, in order: the account holding the seat, the account its player key
was linked to, the key itself; the first with a row decides, and none means every
event is told.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from app.notify.settings import EVERYTHING, NoticeSettings

from .models import AccountKey, NoticeSettingRow, Seat, table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository

SETTINGS = table_of(NoticeSettingRow)
SEATS = table_of(Seat)
ACCOUNT_KEYS = table_of(AccountKey)


class NoticeRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def settings_of(self, owner: str) -> NoticeSettings | None:
        found = await self._settings([owner])
        return found.get(owner)

    @outages_as_unavailable
    async def save_settings(self, owner: str, settings: NoticeSettings, now_ms: int) -> None:
        await self.repo._run_write(_save, owner, settings, now_ms)

    @outages_as_unavailable
    async def seat_settings(self, room_id: str, seat: int) -> NoticeSettings:
        this_seat = (SEATS.c.room_id == room_id) & (SEATS.c.seat == seat)
        linked = (
            select(ACCOUNT_KEYS.c.account_id)
            .where(ACCOUNT_KEYS.c.player_hash == SEATS.c.player_hash)
            .scalar_subquery()
        )
        q = select(SEATS.c.account_id, linked, SEATS.c.player_hash).where(this_seat)
        async with self.repo.sessions() as s:
            row = (await s.execute(q)).first()
        if row is None:
            return EVERYTHING
        account, linked_account, key_hash = row
        owners = [
            *(f"a:{a}" for a in (account, linked_account) if a is not None),
            *([f"k:{key_hash}"] if key_hash is not None else []),
        ]
        found = await self._settings(owners)
        return next((found[o] for o in owners if o in found), EVERYTHING)

    async def _settings(self, owners: list[str]) -> dict[str, NoticeSettings]:
        if not owners:
            return {}
        q = select(SETTINGS).where(SETTINGS.c.owner.in_(owners))
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        return {r.owner: NoticeSettings(r.turn, r.deadline, r.digest) for r in rows}


def _save(conn: Connection, owner: str, settings: NoticeSettings, now_ms: int) -> None:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    values = {**settings.as_json(), "updated_ms": now_ms}
    q = dialect.insert(SETTINGS).values(owner=owner, **values)
    conn.execute(q.on_conflict_do_update(index_elements=["owner"], set_=values))
