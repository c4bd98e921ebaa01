"""A player who can change devices: player keys, "My games", and moving a seat.

A browser makes a *player key* on its first visit (32 random bytes, base64url) and
keeps it; it sends the key when it takes a seat, and the server stores only the
key's hash on the seat (``seats.player_hash``).  The hash is what "My games" finds
a player's rooms by, and what lets the player take a seat up again from a device
that lacks the seat's token (``reclaim``).

"Continue on another device" moves a seat with a one-time code:

1. the seated browser asks for a code, proving the seat with its token, and
   sends its player key *sealed*: XORed with a random pad that it keeps;
2. its link (and QR code) carries the code and the pad, never through the server;
3. the other device claims the code within ``TRANSFER_SECONDS``: the seat gets a
   new token (the old one stops working), the device gets that token and the
   sealed key, which it opens with the pad.  The server forgets the sealed key.

The server never holds the key itself (only its hash, and for a few minutes the
key XOR a pad it never sees); a code works once; the old device's connections of
the seat are told why (``seat_moved``) and closed, on every process.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from app.core.clock import now_ms
from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.core.tokens import hash_token as _token_hash
from app.core.tokens import new_token
from app.rooms.domain.results import SeatGiven

from .errors import PlayerCode

TRANSFER_SECONDS = 300
"""How long a transfer code can be claimed: five minutes, time enough to find a phone."""
KEY_PATTERN = r"^[A-Za-z0-9_-]{22,64}$"
"""A player key as sent: base64url of at least 16 random bytes (128 bits)."""
MAX_KEYS = 4
"""Keys one request may name (a browser that received another device's key keeps its
own old one too, for its "My games")."""


def player_hash(key: str) -> str:
    return hashlib.sha256(b"krypkasino-player:" + key.encode("ascii")).hexdigest()


def code_hash(code: str) -> str:
    return hashlib.sha256(b"krypkasino-transfer:" + code.encode("ascii")).hexdigest()


class TransferMade(TypedDict):
    """A one-time transfer code, and until when it works (Unix ms)."""

    code: str
    room_id: str
    seat: int
    expires_at: int
    seconds: int


class SeatClaimed(TypedDict):
    """A seat taken over with a transfer code: its new token, the sealed player key."""

    room_id: str
    seat: int
    token: str
    sealed: str | None


@dataclass(frozen=True, slots=True)
class Claim:
    """What claiming a code found: ``ok``, ``not_found``, ``used`` or ``expired``."""

    outcome: str
    room_id: str | None = None
    seat: int | None = None
    sealed: str | None = None


class PlayerStore(Protocol):
    async def link_seat(
        self, room_id: str, seat: int, token_hash: str, player_hash: str
    ) -> bool: ...

    async def create_transfer(
        self,
        room_id: str,
        token_hash: str,
        code_hash: str,
        sealed: str | None,
        expires_ms: int,
        now_ms: int,
        player_hash: str | None,
    ) -> int | None: ...

    async def claim_transfer(self, code_hash: str, now_ms: int, token_hash: str) -> Claim: ...

    async def reclaim_seat(
        self,
        room_id: str,
        player_hashes: Sequence[str],
        token_hash: str,
        account_id: str | None = None,
    ) -> int | None: ...

    async def seat_held(
        self, room_id: str, player_hashes: Sequence[str], account_id: str | None = None
    ) -> int | None: ...


SeatMoved = Callable[[str, int, str], Awaitable[None]]
"""(room, seat, reason) -> tell every process's connections of the seat it moved."""


class Players:
    def __init__(self, store: PlayerStore, seat_moved: SeatMoved) -> None:
        self.store = store
        self.seat_moved = seat_moved

    async def link(self, room_id: str, seat: int, token: str, key: str) -> bool:
        """Mark a seat just taken as this player's (best effort: the seat stands either
        way, it would only be missing from "My games")."""
        try:
            return await self.store.link_seat(room_id, seat, _token_hash(token), player_hash(key))
        except Unavailable:
            return False

    async def create_transfer(
        self, room_id: str, token: str, sealed: str | None, key: str | None
    ) -> TransferMade:
        code = secrets.token_urlsafe(16)  # 128 bits
        now = now_ms()
        expires = now + TRANSFER_SECONDS * 1000
        try:
            seat = await self.store.create_transfer(
                room_id,
                _token_hash(token),
                code_hash(code),
                sealed,
                expires,
                now,
                player_hash(key) if key else None,
            )
        except Unavailable as exc:
            raise unavailable() from exc
        if seat is None:
            raise ServiceError(ErrorCode.UNAUTHORIZED, "this token holds no seat of this room")
        return {
            "code": code,
            "room_id": room_id,
            "seat": seat,
            "expires_at": expires,
            "seconds": TRANSFER_SECONDS,
        }

    async def claim(self, code: str) -> SeatClaimed:
        token = new_token()
        try:
            claim = await self.store.claim_transfer(code_hash(code), now_ms(), _token_hash(token))
        except Unavailable as exc:
            raise unavailable() from exc
        if claim.outcome == "used":
            raise ServiceError(PlayerCode.TRANSFER_USED, "this transfer link was used already")
        if claim.outcome == "expired":
            raise ServiceError(
                PlayerCode.TRANSFER_EXPIRED,
                f"this transfer link has expired (it works for {TRANSFER_SECONDS // 60} minutes)",
            )
        if claim.outcome != "ok" or claim.room_id is None or claim.seat is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no such transfer link")
        await self.seat_moved(claim.room_id, claim.seat, "transfer")
        return {
            "room_id": claim.room_id,
            "seat": claim.seat,
            "token": token,
            "sealed": claim.sealed,
        }

    async def held_seat(
        self, room_id: str, keys: Sequence[str], account_id: str | None = None
    ) -> int | None:
        """The seat these keys (or this signed-in account) hold in the room, or None.

        Unlike ``reclaim`` the seat's token stays as it is: the player's other devices
        keep their seat too (issue 47: a room's link seats its player on every device)."""
        if not keys and account_id is None:
            return None
        try:
            return await self.store.seat_held(room_id, [player_hash(k) for k in keys], account_id)
        except Unavailable as exc:
            raise unavailable() from exc

    async def reclaim(
        self, room_id: str, keys: Sequence[str], account_id: str | None = None
    ) -> SeatGiven:
        """A new token for the seat these keys (or this signed-in account, issue 34) hold
        in the room (the player rejoins from a device without the seat's token); the old
        token's connections are moved off."""
        token = new_token()
        try:
            seat = await self.store.reclaim_seat(
                room_id, [player_hash(k) for k in keys], _token_hash(token), account_id
            )
        except Unavailable as exc:
            raise unavailable() from exc
        if seat is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "your player key holds no seat in this room")
        await self.seat_moved(room_id, seat, "reclaim")
        return SeatGiven(seat, token)
