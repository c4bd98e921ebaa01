"""New rooms and their seats: making a room (its maker in seat 0, its bots seated),
the caps on live rooms, and a person taking a free seat (under no bot's name and, when
they chose the name, under none that looks like a seated person's: app/names.py).

The one job that mints codes and seat tokens and checks the server's capacity.
"""

from __future__ import annotations

import uuid
from dataclasses import replace

from app.core.clock import now_ms
from app.core.errors import Conflict, ErrorCode, ServiceError, Unavailable, unavailable
from app.core.tokens import creator_key, hash_token, new_token
from app.names import RESERVED_MESSAGE, SEATED_MESSAGE, bidi_control, is_reserved_name, name_key
from app.realtime.hub import Hub

from ..deadline_rows import deadline_rows
from ..domain.commands import JoinRoom, NewRoom
from ..domain.errors import RoomCode, refuse_closed
from ..domain.events import SeatTaken
from ..domain.results import RoomCreated, SeatGiven
from ..domain.specs import Spec
from ..domain.state import RoomState
from ..domain.tokens import new_code
from ..registry import runtime, unload_if_unattended
from ..runtime import RoomRuntime
from ..unit import RoomsUnit
from .context import Context, handles


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
        RoomCode.TOO_MANY_ROOMS,
        f"{whose} has {count} rooms waiting or in play, the most it may have ({most}). "
        "Every room made from it counts: new rooms and Play now, Find a game, the deal of "
        "the day, and for an address the rooms of everyone who shares it (a club, a "
        f"school, a phone network). A place frees up when a match ends, and {ends}: "
        "finish or leave a game, or try again later",
    )


@handles(NewRoom)
async def create_room(ctx: Context, plan: NewRoom) -> RoomCreated:
    """A new room with its maker in ``plan.seat``; its live rooms are counted against
    ``plan.creator`` (an address) or ``plan.made_by`` (its stored key).  The bots take
    the last seats, or every other seat when the maker sits elsewhere than 0 or beside
    other bot accounts (``plan.outside_seats``, seated with the maker)."""
    unit, writes = ctx.unit, ctx.writes
    refuse_reserved(plan.name)
    plan.check()
    players, seat = plan.players, plan.seat
    made_by = plan.made_by
    if made_by is None and plan.creator is not None:
        made_by = creator_key(plan.creator)
    await check_room_caps(unit, made_by)
    token = new_token()
    maker = SeatTaken(seat, plan.name, outside_bot=plan.outside_bot)
    specs = [Spec(maker, token_hash=hash_token(token))]
    others = tuple((other, new_token()) for other, _ in plan.outside_seats)
    for (other, name), (_, other_token) in zip(plan.outside_seats, others, strict=True):
        refuse_reserved(name)
        specs.append(Spec(SeatTaken(other, name, outside_bot=True), hash_token(other_token)))
    held = {seat, *(other for other, _ in others)}
    if seat == 0 and not others:
        bot_seats = list(range(players - plan.bots, players))
    else:
        bot_seats = [i for i in range(players) if i not in held]
    for i, bot_seat in enumerate(bot_seats):
        specs.append(Spec(SeatTaken(bot_seat, f"Bot {i + 1}", bot=True)))
    for _ in range(5):  # a new code, should another room have taken this one meanwhile
        code = new_code()
        # the room's own options: it changes them (spectator chat), the plan stays as asked
        state = RoomState(uuid.uuid4().hex, code, players, plan.rules, replace(plan.options))
        rt = RoomRuntime(state=state, hub=Hub(unit.settings.history))
        at = now_ms()
        written, _ = writes.apply(rt, list(specs), at)
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
        return RoomCreated(state.room_id, code, seat, token, others)
    raise ServiceError(ErrorCode.BUSY, "could not find a free room code; try again")


async def check_room_caps(
    unit: RoomsUnit, made_by: str | None, ends_after: float | None = None
) -> None:
    """Refuse a new room when the server, or the address ``made_by``, holds as many
    live rooms as it may (ServiceSettings.max_rooms, max_rooms_per_creator);
    ``ends_after``: the minutes after which an abandoned room ends, for the refusal
    to say (when the caller knows them)."""
    settings = unit.settings
    per_creator, most = settings.max_rooms_per_creator, settings.max_rooms
    if not per_creator and not most:
        return
    try:
        mine, total = await unit.store.live_rooms(made_by)
    except Unavailable as exc:
        raise unavailable() from exc
    if most and total >= most:
        raise ServiceError(
            RoomCode.SERVER_FULL, "the server holds as many games as it can; try again later"
        )
    if per_creator and made_by is not None and mine >= per_creator:
        raise too_many_rooms("your address", mine, per_creator, ends_after)


@handles(JoinRoom)
async def join(ctx: Context, cmd: JoinRoom) -> SeatGiven:
    """Seat ``cmd.name`` in the first free seat; returns the seat and its token.  With
    ``cmd.distinct``, not under a name that looks like a seated person's."""
    name = cmd.name
    refuse_reserved(name)
    rt = await runtime(ctx.unit, cmd.room_id)
    token = new_token()

    def make(st: RoomState) -> list[Spec]:
        refuse_closed(st)  # ops
        if cmd.distinct:
            refuse_seated(name, st)
        seat = st.free_seat()
        if seat is None:
            raise ServiceError(RoomCode.ROOM_FULL, "every seat is taken")
        taken = SeatTaken(seat, name, outside_bot=cmd.outside_bot)
        return [Spec(taken, token_hash=hash_token(token))]

    specs = await ctx.writes.write(rt, make)
    taken = specs[0].body
    assert isinstance(taken, SeatTaken)
    return SeatGiven(taken.seat, token)
