""" "Play this deal yourself" (issue 32): a finished deal's pack, dealt again in a new
room of one person against bots, from the same seat, with the same dealer.

Only a finished deal is read (its stored record: seed, dealer, rules); a deal in
play is refused ``deal_not_over`` before anything of it is read, so no card of a
live deal reaches anyone.  The new room plays that one deal (V8) with the deal's
own rules otherwise; its bots play as in any room (only the deal of the day seeds
them).  The seat defaults to the one the asking player key held in the room.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, Protocol

from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.engine.rules import RuleSet
from app.rooms.domain.options import DealPreset
from app.rooms.domain.record_types import StoredDeal
from app.rooms.domain.results import RoomCreated

from .service import MakeRoom

DealState = Literal["none", "live", "over"]


class SoloStore(Protocol):
    async def deal_state(self, room_id: str, match_no: int, deal_no: int) -> DealState: ...

    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        """The finished deal's stored record (None unless it is over)."""

    async def seat_of(self, room_id: str, player_hash: str) -> int | None:
        """The seat of the room this player key took, if any."""


def one_deal(rules: RuleSet) -> RuleSet:
    """The deal's rules for a match of that one deal (V8; no tie-break deal, V10)."""
    return replace(rules, match_deals=1, match_limit=None, tie_break_deal=False)


class Solo:
    def __init__(self, store: SoloStore, make_room: MakeRoom) -> None:
        self.store = store
        self.make_room = make_room

    async def play_again(
        self,
        room_id: str,
        match_no: int,
        deal_no: int,
        *,
        seat: int | None,
        player_hash: str | None,
        name: str,
        creator: str | None,
    ) -> RoomCreated:
        """A new room on the finished deal's pack: 404 ``not_found`` for no such deal,
        409 ``deal_not_over`` while it is played, 422 for a seat the deal had not."""
        try:
            state = await self.store.deal_state(room_id, match_no, deal_no)
            if state == "none":
                raise ServiceError(ErrorCode.NOT_FOUND, "no such deal")
            if state == "live":
                raise ServiceError(ErrorCode.DEAL_NOT_OVER, "the deal is still being played")
            record = await self.store.deal_record(room_id, match_no, deal_no)
            if record is None:
                raise ServiceError(ErrorCode.NOT_FOUND, "no such deal")
            if seat is None and player_hash is not None:
                seat = await self.store.seat_of(room_id, player_hash)
        except Unavailable as exc:
            raise unavailable() from exc
        players = record["players"]
        seat = 0 if seat is None else seat
        if not 0 <= seat < players:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"seat must be 0..{players - 1}")
        rules = one_deal(RuleSet.from_dict(record["rules"]))
        preset = DealPreset(seed=record["seed"], dealer=record["dealer"])
        return await self.make_room(players, name, rules, preset, creator, seat)
