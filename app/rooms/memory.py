"""A RoomStore kept in memory: the room service without a database.

It keeps the same promises as the SQL repository (app/db), which is what makes
it worth having: a write moves the room's version from the seq it saw or fails
with ``Conflict``; a client id is stored once per room; a room and its first
events are created together; leases have one owner until they run out.  The
service's tests run against it as well as against SQLite and PostgreSQL, and
so does anyone who wants to try the service in a few lines of Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app.core.errors import Conflict
from app.core.outbox import MemoryOutbox
from app.engine.shuffle import commitment as make_commitment
from app.engine.shuffle import shuffled_pack

from .domain.assist_record import deal_moves
from .domain.correspondence import MOVE, DeadlineSpec
from .domain.events import (
    DealStarted,
    HintGiven,
    MatchStarted,
    Played,
    RoomEvent,
    SeatTaken,
    TakenBack,
)
from .domain.outcomes import deadline_near
from .domain.record_types import StoredDeal
from .domain.state import RoomState
from .store import DueDeadline, Written


@dataclass(slots=True)
class _Room:
    state: RoomState
    """The room's first state (before any event): what load_state starts from."""
    creator: str | None
    status: str
    events: list[RoomEvent] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    """Each stored play's id -> its seq (the unique index of the SQL store)."""
    lease: tuple[str | None, int | None] = (None, None)
    deadlines: dict[str, tuple[DeadlineSpec, str | None, int | None]] = field(default_factory=dict)
    """``room_deadlines``: kind -> (row, claim owner, claim until)."""
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def seq(self) -> int:
        return self.events[-1].seq if self.events else 0


def _people(room: _Room) -> int:
    """Seats a person took (a waiting room's seats are never given up)."""
    return sum(1 for ev in room.events if isinstance(ev.body, SeatTaken) and not ev.body.bot)


class MemoryStore(MemoryOutbox):
    def __init__(self) -> None:
        super().__init__()
        self._rooms: dict[str, _Room] = {}

    # ----------------------------------------------------------------- writes

    async def create_room(
        self,
        state: RoomState,
        written: Sequence[Written] = (),
        creator: str | None = None,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> None:
        if state.room_id in self._rooms or any(
            r.state.code == state.code for r in self._rooms.values()
        ):
            raise Conflict(f"room {state.room_id} or code {state.code} exists")
        first = RoomState(state.room_id, state.code, state.players, state.rules, state.options)
        room = _Room(first, creator, first.status)
        self._rooms[state.room_id] = room
        if written:
            self._append(room, 0, state.status, written, deadlines)

    async def commit_events(
        self,
        room_id: str,
        expected_seq: int,
        status: str,
        written: Sequence[Written],
        stored_status: str | None = None,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> None:
        room = self._rooms.get(room_id)
        if room is None:
            raise Conflict(f"no room {room_id}")
        if written:
            self._append(room, expected_seq, status, written, deadlines)

    def _append(
        self,
        room: _Room,
        expected: int,
        status: str,
        written: Sequence[Written],
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> None:
        """All or nothing, like the SQL transaction."""
        if room.seq != expected:
            raise Conflict(f"room is at seq {room.seq}, not {expected}")
        ids: set[str] = set()
        for w in written:
            client_id = w.event.client_id
            if not client_id:
                continue
            if client_id in room.played or client_id in ids:
                raise Conflict(f"client id {client_id} is stored already")
            ids.add(client_id)
        for w in written:
            room.events.append(w.event)
            if w.event.client_id:
                room.played[w.event.client_id] = w.event.seq
            body = w.event.body
            if isinstance(body, SeatTaken) and w.token_hash is not None:
                room.tokens[w.token_hash] = body.seat
        room.status = status
        room.updated_at = datetime.now(UTC)
        if deadlines is not None:
            room.deadlines = {d.kind: (d, None, None) for d in deadlines}
        if written:
            self.add([e for w in written for e in w.outbox], written[-1].event.at)

    # ------------------------------------------------------------------ reads

    async def load_state(self, room_id: str) -> RoomState | None:
        room = self._rooms.get(room_id)
        if room is None:
            return None
        first = room.state
        state = RoomState(first.room_id, first.code, first.players, first.rules, first.options)
        for ev in room.events:
            state.apply(ev)
        return state

    async def events_after(self, room_id: str, seq: int) -> list[RoomEvent]:
        room = self._rooms.get(room_id)
        return [] if room is None else [ev for ev in room.events if ev.seq > seq]

    async def room_seqs(self, room_ids: Sequence[str]) -> dict[str, int]:
        return {r: self._rooms[r].seq for r in room_ids if r in self._rooms}

    async def seat_for_token(self, room_id: str, token_hash: str) -> int | None:
        room = self._rooms.get(room_id)
        return None if room is None else room.tokens.get(token_hash)

    async def play_seq(self, room_id: str, client_id: str) -> int | None:
        room = self._rooms.get(room_id)
        return None if room is None else room.played.get(client_id)

    async def room_id_for_code(self, code: str) -> str | None:
        return next((r for r, room in self._rooms.items() if room.state.code == code), None)

    async def live_rooms(self, creator: str | None) -> tuple[int, int]:
        live = [r for r in self._rooms.values() if r.status in ("waiting", "playing")]
        return sum(1 for r in live if creator is not None and r.creator == creator), len(live)

    async def idle_waiting_rooms(
        self, before: datetime, limit: int = 100, *, unjoined: bool = False
    ) -> list[str]:
        return [
            r
            for r, room in self._rooms.items()
            if room.status == "waiting"
            and room.updated_at < before
            and (not unjoined or _people(room) <= 1)
        ][:limit]

    async def deal_record(self, room_id: str, match_no: int, deal_no: int) -> StoredDeal | None:
        """The same stored record as the SQL repository's, found by replaying events."""
        room = self._rooms.get(room_id)
        if room is None:
            return None
        first = room.state
        state = RoomState(first.room_id, first.code, first.players, first.rules, first.options)
        record: StoredDeal | None = None
        plays: list[Played | TakenBack | HintGiven] = []
        for ev in room.events:
            state.apply(ev)
            body = ev.body
            if isinstance(body, MatchStarted) and record is not None:
                break
            if isinstance(body, DealStarted):
                if record is not None:
                    break
                if body.match_no == match_no and body.deal_no == deal_no:
                    seed = body.seed
                    record = {
                        "room_id": room_id,
                        "match_no": match_no,
                        "deal_no": deal_no,
                        "rules": first.rules.to_dict(),
                        "pack": shuffled_pack(seed, body.copies),
                        "dealer": body.dealer,
                        "players": first.players,
                        "seed": seed,
                        "commitment": make_commitment(seed),
                        "scores": None,
                        "totals": None,
                        "moves": [],
                    }
            elif isinstance(body, Played | TakenBack | HintGiven) and record is not None:
                plays.append(body)
                if state.finished_deal is not None:
                    record["scores"] = state.finished_deal["scores"]
                    record["totals"] = state.finished_deal["totals"]
        if record is None or record["scores"] is None:
            return None
        record["moves"], record["assists"] = deal_moves(plays)
        return record

    async def ping(self) -> None:
        return None

    # ----------------------------------------------------------------- leases

    async def take_lease(
        self, room_id: str, owner: str, now_ms: int, until_ms: int
    ) -> tuple[bool, int | None]:
        room = self._rooms.get(room_id)
        if room is None:
            return False, None
        held_by, held_until = room.lease
        if held_by is None or held_by == owner or (held_until or 0) < now_ms:
            room.lease = (owner, until_ms)
            return True, until_ms
        return False, held_until

    async def renew_leases(self, owner: str, room_ids: Sequence[str], until_ms: int) -> set[str]:
        kept = set()
        for r in room_ids:
            room = self._rooms.get(r)
            if room is not None and room.lease[0] == owner:
                room.lease = (owner, until_ms)
                kept.add(r)
        return kept

    async def release_leases(self, owner: str, room_ids: Sequence[str]) -> None:
        for r in room_ids:
            room = self._rooms.get(r)
            if room is not None and room.lease[0] == owner:
                room.lease = (None, None)

    async def lease_of(self, room_id: str) -> tuple[str | None, int | None]:
        room = self._rooms.get(room_id)
        return room.lease if room is not None else (None, None)

    # ------------------------------------------------------------- deadlines

    def deadline_rows(self, room_id: str) -> list[DeadlineSpec]:
        """The room's deadline rows (for tests)."""
        room = self._rooms.get(room_id)
        return [] if room is None else [row for row, _, _ in room.deadlines.values()]

    async def claim_deadlines(
        self, owner: str, now_ms: int, until_ms: int, limit: int
    ) -> list[DueDeadline]:
        due = sorted(
            (row.due_ms, room_id, row)
            for room_id, room in self._rooms.items()
            for row, _, claim in room.deadlines.values()
            if row.due_ms <= now_ms and (claim is None or claim < now_ms)
        )[:limit]
        claimed = []
        for _, room_id, row in due:
            room = self._rooms[room_id]
            if row.kind == MOVE:
                room.deadlines[row.kind] = (row, owner, until_ms)
            else:  # a warning becomes its domain event (as in app/db/deadline_claims.py)
                del room.deadlines[row.kind]
                self.add([deadline_near(room_id, row.kind, row.seq, row.seat)], now_ms)
            claimed.append(DueDeadline(room_id, row.kind, row.seq, row.seat, row.due_ms))
        return claimed

    async def release_deadline(
        self, room_id: str, kind: str, seq: int, owner: str, until_ms: int | None
    ) -> None:
        room = self._rooms.get(room_id)
        held = room.deadlines.get(kind) if room is not None else None
        if room is not None and held is not None and held[0].seq == seq and held[1] == owner:
            room.deadlines[kind] = (held[0], None, until_ms)

    async def drop_deadline(self, room_id: str, kind: str, seq: int) -> None:
        room = self._rooms.get(room_id)
        held = room.deadlines.get(kind) if room is not None else None
        if room is not None and held is not None and held[0].seq == seq:
            del room.deadlines[kind]

    async def next_deadline(self) -> int | None:
        dues = [
            max(row.due_ms, claim or 0)
            for r in self._rooms.values()
            for row, _, claim in r.deadlines.values()
        ]
        return min(dues) if dues else None
