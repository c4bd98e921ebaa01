"""The lobby's list of public rooms: open seats to take, live games to watch.

A host lists a room at creation (``RoomOptions.public``); a private room never appears.
Pages come newest first with an opaque keyset cursor.  Each entry says who sits
where, the rules, the deal in play and how many people are watching (over every
server process, as presence reports them).
"""

from __future__ import annotations

import base64
from typing import Any, Protocol

from app.rooms.domain.errors import ErrorCode, ServiceError
from app.rooms.store import Unavailable
from app.rooms.sync import spectators
from app.rooms.unit import RoomsUnit

KINDS = {"open": "waiting", "live": "playing"}
"""What a client asks for -> the rooms' status: seats to take, or games to watch."""


class PublicRoomStore(Protocol):
    async def page(
        self, status: str, before: tuple[int, str] | None, limit: int
    ) -> list[dict[str, Any]]: ...


def encode_cursor(created: int, room_id: str) -> str:
    return base64.urlsafe_b64encode(f"{created}.{room_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, room_id = raw.split(".", 1)
        if len(room_id) != 32 or not all(c in "0123456789abcdef" for c in room_id):
            raise ValueError(room_id)
        return int(created), room_id
    except (ValueError, UnicodeDecodeError) as exc:
        raise ServiceError(ErrorCode.BAD_REQUEST, "cursor: not one this server gave") from exc


class PublicRooms:
    def __init__(self, unit: RoomsUnit, store: PublicRoomStore) -> None:
        self.unit = unit
        self.store = store

    async def page(self, kind: str, cursor: str | None, limit: int) -> dict[str, Any]:
        """{"rooms": [...], "next": cursor or null}."""
        before = decode_cursor(cursor) if cursor else None
        try:
            rows = await self.store.page(KINDS[kind], before, limit + 1)
        except Unavailable as exc:
            raise ServiceError(
                ErrorCode.UNAVAILABLE, "the database is not answering; try again"
            ) from exc
        more = len(rows) > limit
        rows = rows[:limit]
        for row in rows:
            created = row.pop("created")
            row["free_seats"] = sum(1 for s in row["seats"] if s["name"] is None)
            row["spectators"] = await self.watching(row["room_id"], row["players"])
            row["options"] = {
                k: row["options"].get(k)
                for k in ("turn_clock", "time_bank", "time_increment", "bot_level")
            }
            row["cursor"] = encode_cursor(created, row["room_id"])
        nxt = rows[-1]["cursor"] if more and rows else None
        for row in rows:
            del row["cursor"]
        return {"kind": kind, "rooms": rows, "next": nxt}

    async def watching(self, room_id: str, players: int) -> int:
        """Spectators connected to the room, on this process and the others."""
        return await spectators(self.unit, room_id, players)
