"""The lobby's list of public rooms: open seats to take, live games to watch.

A host lists a room at creation (``RoomOptions.public``); a private room never appears.
Pages come newest first with an opaque keyset cursor.  Each entry says who sits
where, the rules, the deal in play and how many people are watching (over every
server process, as presence reports them).
"""

from __future__ import annotations

import base64
from typing import Protocol, TypedDict

from app.core.errors import ErrorCode, ServiceError, Unavailable
from app.engine.rules import RuleValues
from app.rooms.domain.record_types import SeatName

KINDS = {"open": "waiting", "live": "playing"}
"""What a client asks for -> the rooms' status: seats to take, or games to watch."""


class ListedRoom(TypedDict):
    """A public room as the store finds it."""

    room_id: str
    code: str
    status: str
    players: int
    rules: RuleValues
    options: dict[str, object]
    created: int
    """When it was made (µs since 1970): the page order and the cursor's key."""
    seats: list[SeatName]
    deal_no: int


class PublicRoomOptions(TypedDict):
    turn_clock: object
    time_bank: object
    time_increment: object
    bot_level: object


class PublicRoom(TypedDict):
    """A room of the lobby's list."""

    room_id: str
    code: str
    status: str
    players: int
    rules: RuleValues
    options: PublicRoomOptions
    seats: list[SeatName]
    deal_no: int
    free_seats: int
    spectators: int


class PublicPage(TypedDict):
    kind: str
    rooms: list[PublicRoom]
    next: str | None


class Spectators(Protocol):
    """What the list asks of the rooms (a port; the room service implements it)."""

    async def spectators(self, room_id: str, players: int) -> int:
        """Spectators connected to the room, on this process and the others."""


class PublicRoomStore(Protocol):
    async def page(
        self, status: str, before: tuple[int, str] | None, limit: int
    ) -> list[ListedRoom]: ...


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
    def __init__(self, rooms: Spectators, store: PublicRoomStore) -> None:
        self.rooms = rooms
        self.store = store

    async def page(self, kind: str, cursor: str | None, limit: int) -> PublicPage:
        """{"rooms": [...], "next": cursor or null}."""
        before = decode_cursor(cursor) if cursor else None
        try:
            rows = await self.store.page(KINDS[kind], before, limit + 1)
        except Unavailable as exc:
            raise ServiceError(
                ErrorCode.UNAVAILABLE, "the database is not answering; try again"
            ) from exc
        more = len(rows) > limit
        rooms: list[PublicRoom] = []
        for row in rows[:limit]:
            options = row["options"]
            rooms.append(
                {
                    "room_id": row["room_id"],
                    "code": row["code"],
                    "status": row["status"],
                    "players": row["players"],
                    "rules": row["rules"],
                    "options": {
                        "turn_clock": options.get("turn_clock"),
                        "time_bank": options.get("time_bank"),
                        "time_increment": options.get("time_increment"),
                        "bot_level": options.get("bot_level"),
                    },
                    "seats": row["seats"],
                    "deal_no": row["deal_no"],
                    "free_seats": sum(1 for s in row["seats"] if s["name"] is None),
                    "spectators": await self.watching(row["room_id"], row["players"]),
                }
            )
        last = rows[limit - 1] if more and limit > 0 else None
        nxt = encode_cursor(last["created"], last["room_id"]) if last is not None else None
        return {"kind": kind, "rooms": rooms, "next": nxt}

    async def watching(self, room_id: str, players: int) -> int:
        """Spectators connected to the room, on this process and the others."""
        return await self.rooms.spectators(room_id, players)
