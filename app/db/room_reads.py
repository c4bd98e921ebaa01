"""Reading rooms back to follow and rebuild them: the reading half of ``RoomStore``
that the room service runs on.

A room in memory is only ever the replay of its stored events (``load_state``),
kept current by reading the events after the seq it holds (``events_after``,
``room_seqs``): there is no snapshot to drift from the events.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select

from app.engine.rules import RuleSet
from app.rooms.domain.errors import RoomPurged
from app.rooms.domain.event_codec import EventRow, from_row
from app.rooms.domain.events import RoomEvent
from app.rooms.domain.state import RoomOptions, RoomState

from .models import Event, PurgedRoom, Room, Seat
from .outage import outages_as_unavailable
from .store_base import StoreBase


class RoomReads(StoreBase):
    """A room's state and events, the seqs of rooms, and the seat a token holds."""

    @outages_as_unavailable
    async def load_state(self, room_id: str) -> RoomState | None:
        """Rebuild a room by replaying all its events through the engine.

        None for no such room; raises RoomPurged for a room that was purged."""
        async with self.sessions() as s:
            room = await s.get(Room, room_id)
            if room is None:
                gone = await s.get(PurgedRoom, room_id)
                if gone is not None:
                    raise RoomPurged(room_id, gone.finished_at, gone.purged_at)
                return None
            state = RoomState(
                room.id,
                room.code,
                room.players,
                RuleSet.from_dict(room.rules),
                RoomOptions.from_stored(room.options),
            )
            rows = (
                await s.scalars(select(Event).where(Event.room_id == room_id).order_by(Event.seq))
            ).all()
        for row in rows:
            state.apply(_to_event(row))
        return state

    @outages_as_unavailable
    async def events_after(self, room_id: str, seq: int) -> list[RoomEvent]:
        async with self.sessions() as s:
            rows = (
                await s.scalars(
                    select(Event)
                    .where(Event.room_id == room_id, Event.seq > seq)
                    .order_by(Event.seq)
                )
            ).all()
        return [_to_event(r) for r in rows]

    @outages_as_unavailable
    async def room_seqs(self, room_ids: Sequence[str]) -> dict[str, int]:
        """The stored seq of each of these rooms (to find the ones a process is behind on)."""
        if not room_ids:
            return {}
        async with self.sessions() as s:
            rows = (
                await s.execute(select(Room.id, Room.seq).where(Room.id.in_(list(room_ids))))
            ).all()
        return {room_id: seq for room_id, seq in rows}

    @outages_as_unavailable
    async def unfinished_room_ids(self) -> list[str]:
        async with self.sessions() as s:
            return list((await s.scalars(select(Room.id).where(Room.status != "finished"))).all())

    @outages_as_unavailable
    async def seat_for_token(self, room_id: str, token_hash: str) -> int | None:
        async with self.sessions() as s:
            return await s.scalar(
                select(Seat.seat).where(Seat.room_id == room_id, Seat.token_hash == token_hash)
            )

    @outages_as_unavailable
    async def play_seq(self, room_id: str, client_id: str) -> int | None:
        """The seq of the play stored with this id: one lookup in the unique index on
        (room_id, client_id), for a resend of a play too old to be in memory."""
        async with self.sessions() as s:
            return await s.scalar(
                select(Event.seq).where(Event.room_id == room_id, Event.client_id == client_id)
            )


def _to_event(row: Event) -> RoomEvent:
    stored = EventRow(row.kind, row.seat, row.card, tuple(row.take or ()), row.client_id, row.data)
    return RoomEvent(row.seq, from_row(stored), row.at_ms or _ms(row.created_at))


def _ms(when: datetime | None) -> int:
    """Unix ms of a stored time (SQLite gives it back without its zone: it is UTC)."""
    if when is None:
        return 0
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp() * 1000)
