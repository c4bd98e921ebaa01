"""New rooms and their seats: making a room (its maker in seat 0, its bots seated),
the caps on live rooms, and a person taking a free seat (under no bot's name and, when
they chose the name, under none that looks like a seated person's: app/names.py).

The one job that mints codes and seat tokens and checks the server's capacity.
"""

from __future__ import annotations

import uuid

from app.engine.rules import RuleSet
from app.names import RESERVED_MESSAGE, SEATED_MESSAGE, bidi_control, is_reserved_name, name_key
from app.realtime.hub import Hub

from ..deadline_rows import deadline_rows
from ..domain.errors import ErrorCode, ServiceError, refuse_closed, unavailable
from ..domain.events import SeatTaken
from ..domain.results import RoomCreated, SeatGiven
from ..domain.specs import Spec
from ..domain.state import RoomOptions, RoomState
from ..domain.tokens import creator_key, hash_token, new_code, new_token
from ..leases import now_ms
from ..registry import runtime, unload_if_unattended
from ..runtime import RoomRuntime
from ..store import Conflict, Unavailable
from ..unit import RoomsUnit
from ..writes import WritePath


def refuse_reserved(name: str) -> None:
    """A person may not sit down under a bot's name (app/names.py): 422 name_reserved;
    nor under a name with bidirectional controls in it: 422 bad_request."""
    problem = bidi_control(name)
    if problem is not None:
        raise ServiceError(ErrorCode.BAD_REQUEST, problem)
    if is_reserved_name(name):
        raise ServiceError(ErrorCode.NAME_RESERVED, RESERVED_MESSAGE)


def refuse_seated(name: str, st: RoomState) -> None:
    """Nobody sits down under a name whose skeleton is a seated person's ("alice" or
    Cyrillic "Аlice" beside "Alice"): 422 name_reserved."""
    key = name_key(name)
    if any(s.name is not None and name_key(s.name) == key for s in st.seats):
        raise ServiceError(ErrorCode.NAME_RESERVED, SEATED_MESSAGE)


def too_many_rooms(
    whose: str, count: int, most: int, ends_after: float | None = None
) -> ServiceError:
    """429 ``too_many_rooms`` for ``whose`` ("your address", "your account"), saying
    what counts and how a place frees up: a refusal must not leave a club behind one
    address, or a newcomer on it, wondering whose rooms these are."""
    ends = (
        f"a room in which nobody has played for {ends_after:g} minutes ends by itself"
        if ends_after
        else "a room nobody plays in ends by itself after a while"
    )
    return ServiceError(
        ErrorCode.TOO_MANY_ROOMS,
        f"{whose} has {count} rooms waiting or in play, the most it may have ({most}). "
        "Every room made from it counts: new rooms and Play now, Find a game, the deal of "
        "the day, and for an address the rooms of everyone who shares it (a club, a "
        f"school, a phone network). A place frees up when a match ends, and {ends}: "
        "finish or leave a game, or try again later",
    )


class Seating:
    def __init__(self, unit: RoomsUnit, writes: WritePath) -> None:
        self.unit = unit
        self.writes = writes

    async def create_room(
        self,
        players: int,
        name: str,
        rules: RuleSet,
        bots: int,
        options: RoomOptions,
        creator: str | None = None,
        seat: int = 0,
        *,
        made_by: str | None = None,
    ) -> RoomCreated:
        """A new room with its maker in ``seat`` (0 unless a replayed deal puts them in
        their own, issue 32); ``creator`` is the address it came from (its live rooms are
        capped), or ``made_by`` that address's stored key (``creator_key``) when the
        caller holds only that (a pairing ticket carries its maker's).  The bots take the
        last seats, or every other seat when the maker sits elsewhere than 0."""
        unit = self.unit
        refuse_reserved(name)
        rules.validate_for(players)
        if not 0 <= bots <= players - 1:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"bots must be 0..{players - 1}")
        if not 0 <= seat < players or (seat != 0 and bots != players - 1):
            raise ServiceError(ErrorCode.BAD_REQUEST, "the maker sits elsewhere only among bots")
        if made_by is None and creator is not None:
            made_by = creator_key(creator)
        await self.check_room_caps(made_by)
        token = new_token()
        specs = [Spec(SeatTaken(seat, name), token_hash=hash_token(token))]
        if seat == 0:
            bot_seats = list(range(players - bots, players))
        else:
            bot_seats = [i for i in range(players) if i != seat]
        for i, bot_seat in enumerate(bot_seats):
            specs.append(Spec(SeatTaken(bot_seat, f"Bot {i + 1}", bot=True)))
        for _ in range(5):  # a new code, should another room have taken this one meanwhile
            code = new_code()
            state = RoomState(uuid.uuid4().hex, code, players, rules, options)
            rt = RoomRuntime(state=state, hub=Hub(unit.settings.history))
            at = now_ms()
            written, _ = self.writes.apply(rt, list(specs), at)
            rows = deadline_rows(state, unit.settings, at)
            try:
                await unit.store.create_room(state, written, made_by, rows)
            except Conflict:
                continue
            except Unavailable as exc:
                raise unavailable() from exc
            unit.rooms[state.room_id] = rt
            await unit.safe(unit.broker.publish(state.room_id, state.seq))
            unit.scheduler.schedule(rt)
            unload_if_unattended(unit, state.room_id)  # a correspondence room (issue 32)
            return {"room_id": state.room_id, "code": code, "seat": seat, "token": token}
        raise ServiceError(ErrorCode.BUSY, "could not find a free room code; try again")

    async def check_room_caps(self, made_by: str | None, ends_after: float | None = None) -> None:
        """Refuse a new room when the server, or the address ``made_by``, holds as many
        live rooms as it may (ServiceSettings.max_rooms, max_rooms_per_creator);
        ``ends_after``: the minutes after which an abandoned room ends, for the refusal
        to say (when the caller knows them)."""
        settings = self.unit.settings
        per_creator, most = settings.max_rooms_per_creator, settings.max_rooms
        if not per_creator and not most:
            return
        try:
            mine, total = await self.unit.store.live_rooms(made_by)
        except Unavailable as exc:
            raise unavailable() from exc
        if most and total >= most:
            raise ServiceError(
                ErrorCode.SERVER_FULL, "the server holds as many games as it can; try again later"
            )
        if per_creator and made_by is not None and mine >= per_creator:
            raise too_many_rooms("your address", mine, per_creator, ends_after)

    async def join(self, room_id: str, name: str, *, distinct: bool = False) -> SeatGiven:
        """Seat ``name`` in the first free seat; returns the seat and its token.
        ``distinct``: the person chose the name (the API), so it may not look like a
        seated person's; quick pairing seats the names its people queued under."""
        refuse_reserved(name)
        rt = await runtime(self.unit, room_id)
        token = new_token()

        def make(st: RoomState) -> list[Spec]:
            refuse_closed(st)  # ops
            if distinct:
                refuse_seated(name, st)
            seat = st.free_seat()
            if seat is None:
                raise ServiceError(ErrorCode.ROOM_FULL, "every seat is taken")
            return [Spec(SeatTaken(seat, name), token_hash=hash_token(token))]

        specs = await self.writes.write(rt, make)
        taken = specs[0].body
        assert isinstance(taken, SeatTaken)
        return {"seat": taken.seat, "token": token}
