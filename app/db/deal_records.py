"""The stored record of a finished deal: the scenario of the exchange format (rules,
pack, dealer, moves) with its scores, seed and commitment, for the replay viewer and
for anyone checking the shuffle.

Only a finished deal has one (``deals.scores`` is written by the same transaction as
the play that ended it): nothing about a deal in play, not even its seed, is read.
"""

from __future__ import annotations

from sqlalchemy import func, select

from app.rooms.domain.events import MATCH, PLAY, move_by
from app.rooms.domain.record_types import RecordMove, StoredDeal

from .models import DealRow, Event, Room
from .outage import outages_as_unavailable
from .store_base import StoreBase


class DealRecords(StoreBase):
    """``deal_record`` of ``RoomStore``."""

    @outages_as_unavailable
    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        """A finished deal as a scenario of the exchange format plus scores, seed, commitment."""
        async with self.sessions() as s:
            room = await s.get(Room, room_id)
            deal = await s.get(DealRow, (room_id, match_no, deal_no))
            if room is None or deal is None or deal.scores is None:
                return None
            moves = (
                await s.scalars(
                    select(Event)
                    .where(
                        Event.room_id == room_id, Event.kind == PLAY, Event.seq > deal.started_seq
                    )
                    .order_by(Event.seq)
                )
            ).all()
            next_deal = await s.scalar(
                select(func.min(DealRow.started_seq)).where(
                    DealRow.room_id == room_id, DealRow.started_seq > deal.started_seq
                )
            )
            match_started = await s.scalar(
                select(func.min(Event.seq)).where(
                    Event.room_id == room_id, Event.kind == MATCH, Event.seq > deal.started_seq
                )
            )
        limits = [x for x in (next_deal, match_started) if x is not None]
        end = min(limits) if limits else None
        stored: StoredDeal = {
            "room_id": room_id,
            "match_no": match_no,
            "deal_no": deal_no,
            "rules": room.rules,
            "pack": deal.pack,
            "dealer": deal.dealer,
            "players": room.players,
            "seed": deal.seed,
            "commitment": deal.commitment,
            "scores": deal.scores,
            "totals": deal.totals,
            "moves": [_record_move(m) for m in moves if end is None or m.seq < end],
        }
        return stored


def _record_move(m: Event) -> RecordMove:
    """A move of a deal record; ``by`` says the clock or a stand-in bot played it."""
    assert m.card is not None, "a play has a card"
    out: RecordMove = {"card": m.card, "take": list(m.take or [])}
    by = move_by(m.client_id)
    if by is not None:
        out["by"] = by
    return out
