"""The stored record of a finished deal: the scenario of the exchange format (rules,
pack, dealer, moves) with its scores, seed and commitment, for the replay viewer and
for anyone checking the shuffle.

Only a finished deal has one (``deals.scores`` is written by the same transaction as
the play that ended it): nothing about a deal in play, not even its seed, is read.
"""

from __future__ import annotations

from sqlalchemy import func, select

from app.rooms.domain.assist_record import deal_moves
from app.rooms.domain.event_codec import EventRow, from_row
from app.rooms.domain.events import HINT, MATCH, PLAY, TAKEBACK, HintGiven, Played, TakenBack
from app.rooms.domain.record_types import StoredDeal

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
                        Event.room_id == room_id,
                        Event.kind.in_((PLAY, TAKEBACK, HINT)),
                        Event.seq > deal.started_seq,
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
        played, assists = deal_moves(_body(m) for m in moves if end is None or m.seq < end)
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
            "moves": played,
            "assists": assists,
        }
        return stored


def _body(m: Event) -> Played | TakenBack | HintGiven:
    """A play, take-back or hint row as its event (the one codec parses stored rows)."""
    body = from_row(EventRow(m.kind, m.seat, m.card, tuple(m.take or ()), m.client_id, m.data))
    assert isinstance(body, Played | TakenBack | HintGiven), "queried by these kinds"
    return body
