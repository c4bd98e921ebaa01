"""Which events a player wants told (issue 32): ``turn`` (a turn starts while no page
of theirs is open), ``deadline`` (24 h and 1 h before a correspondence deadline) and
``digest`` (the daily email).  Every one is on until the player turns it off.

Settings belong to an *owner*: the signed-in account (``a:<id>``, so that every
device the person signs in on shares them) or else the browser's player key
(``k:<hash of the key>``).  A seat's owner is the account holding the seat, or the
account its player key was linked to, or else that key: the first of those with
settings decides (app/db/notices.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol

from app.players.players import player_hash

EVENTS = ("turn", "deadline", "digest")


@dataclass(frozen=True, slots=True)
class NoticeSettings:
    turn: bool = True
    deadline: bool = True
    digest: bool = True

    def as_json(self) -> dict[str, bool]:
        return asdict(self)


EVERYTHING = NoticeSettings()
"""What an owner who never chose is told."""


def account_owner(account_id: str) -> str:
    return f"a:{account_id}"


def key_owner(key: str) -> str:
    """The owner of a player key (the key itself is never stored: its hash is)."""
    return f"k:{player_hash(key)}"


def owner_of(account_id: str | None, key: str | None) -> str | None:
    """The signed-in account if any, else the player key; None without either."""
    if account_id is not None:
        return account_owner(account_id)
    return key_owner(key) if key is not None else None


class SettingsStore(Protocol):
    async def settings_of(self, owner: str) -> NoticeSettings | None: ...

    async def save_settings(self, owner: str, settings: NoticeSettings, now_ms: int) -> None: ...


class SeatSettings(Protocol):
    async def seat_settings(self, room_id: str, seat: int) -> NoticeSettings:
        """The settings of the seat's owner (EVERYTHING when they never chose)."""
        ...


class NoticeChoices:
    """Reading and changing an owner's settings (the API's side)."""

    def __init__(self, store: SettingsStore) -> None:
        self.store = store

    async def get(self, owner: str) -> NoticeSettings:
        return await self.store.settings_of(owner) or EVERYTHING

    async def put(self, owner: str, settings: NoticeSettings, now_ms: int) -> NoticeSettings:
        await self.store.save_settings(owner, settings, now_ms)
        return settings
