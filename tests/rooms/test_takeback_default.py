"""Take-back on by default for one person alone against bots (issue 47, finding 6).

"Until the bot has played" left about 0.6 s at the default bot pace: a room made
without choosing now lets the person take back their last play after the bots have
answered, the bots' replies undone with it, as often as a play of theirs stands in the
deal.  Still never to a spectator, in a rated room, or with a second person at the table;
a flood of take-backs undoes exactly the plays that stood, and the room read back from
the store (memory, SQLite, PostgreSQL) is the one the person sees, its record replaying.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

from app.core.errors import ErrorCode, ServiceError
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, TakeBack
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.state import RoomOptions
from app.rooms.memory import MemoryStore
from app.rooms.service import RoomService
from tests.conftest import open_store, run_async
from tests.rooms.test_assist import (
    LATER,
    PERSON,
    _bot_plays,
    _person_plays,
    _refused,
    _service,
    _to_person,
    _views,
)


async def _default_room(
    service: RoomService, players: int = 3, bots: int = 2, rated: bool = False
) -> str:
    """A room of Ann and bots made with the default take-back (nothing chosen); its bots
    wait, so that the test decides when each plays."""
    options = RoomOptions(bot_delay=LATER, deal_pause=LATER, rated=rated)
    made = await service.execute(NewRoom(players, "Ann", RuleSet(), bots, options))
    return made.room_id


async def _round(service: RoomService, rid: str, which: int = 0) -> None:
    """The person plays and every bot answers, until it is the person's turn again."""
    await _person_plays(service, rid, which)
    await _to_person(service, rid)


async def after_the_bots_answered() -> None:
    service = _service(MemoryStore())
    try:
        rid = await _default_room(service)
        await _to_person(service, rid)
        first = _views(service, rid)
        await _round(service, rid)
        second = _views(service, rid)
        await _round(service, rid, 1)
        assert service.rooms[rid].state.view(PERSON)["assist"]["takeback"] is True
        await service.execute(TakeBack(rid, PERSON))  # both bots have answered: still allowed
        assert _views(service, rid) == second
        await service.execute(TakeBack(rid, PERSON))  # and again: back to the person's first turn
        assert _views(service, rid) == first
        assert service.rooms[rid].state.view(PERSON)["assist"]["takeback"] is False
        await _refused(RoomCode.NOTHING_TO_TAKE_BACK, service.execute(TakeBack(rid, PERSON)))
        assert _views(service, rid) == first
    finally:
        await service.stop()


def test_by_default_a_play_is_taken_back_after_the_bots_answered_and_again() -> None:
    run_async(after_the_bots_answered())


async def never_to_anyone_else() -> None:
    service = _service(MemoryStore())
    try:
        rid = await _default_room(service)  # the default reaches nobody but the person
        await _to_person(service, rid)
        await _round(service, rid)
        seq = service.rooms[rid].state.seq
        await _refused(ErrorCode.UNAUTHORIZED, service.execute(TakeBack(rid, None)))  # a spectator
        await _refused(RoomCode.NO_ASSIST, service.execute(TakeBack(rid, 1)))  # a bot's seat
        assert service.rooms[rid].state.seq == seq

        rated = await _default_room(service, rated=True)  # alone against bots, but rated
        await _to_person(service, rated)
        await _person_plays(service, rated)
        seq = service.rooms[rated].state.seq
        assert service.rooms[rated].state.view(PERSON)["assist"] is None
        await _refused(RoomCode.NO_ASSIST, service.execute(TakeBack(rated, PERSON)))
        assert service.rooms[rated].state.seq == seq

        two = await _default_room(service, players=3, bots=1)  # Ann, Bo and a bot
        await service.execute(JoinRoom(two, "Bo"))
        st = service.rooms[two].state
        assert st.status == "playing" and st.view(0)["assist"] is None
        seq = st.seq
        for seat in (0, 1):
            await _refused(RoomCode.NO_ASSIST, service.execute(TakeBack(two, seat)))
        assert service.rooms[two].state.seq == seq
        assert service.rooms[rid].state.options.takeback == "always"  # the new default
    finally:
        await service.stop()


def test_the_default_take_back_is_refused_to_spectators_rated_rooms_and_two_people() -> None:
    run_async(never_to_anyone_else())


async def _attempt(service: RoomService, rid: str) -> str:
    try:
        await service.execute(TakeBack(rid, PERSON))
    except ServiceError as exc:
        return exc.code
    return "ok"


async def flooded(url: str) -> None:
    stack = AsyncExitStack()
    store = await stack.enter_async_context(open_store(url))
    service = _service(store)
    try:
        rid = await _default_room(service, players=2, bots=1)
        await _to_person(service, rid)
        first = _views(service, rid)
        await _round(service, rid)
        await _round(service, rid, 1)
        answers = await asyncio.gather(*(_attempt(service, rid) for _ in range(12)))
        # two plays of the person's stood: two take-backs, each refused after them
        assert sorted(answers) == ["nothing_to_take_back"] * 10 + ["ok"] * 2
        assert _views(service, rid) == first
        stored = await service.repo.load_state(rid)
        assert stored is not None and stored.seq == service.rooms[rid].state.seq
        assert [stored.view(s) for s in [0, 1, None]] == first  # no play lost or kept back

        while (st := service.rooms[rid].state).deal is not None and not st.deal.is_over:
            if st.to_move == PERSON:
                await _person_plays(service, rid)
            else:
                await _bot_plays(service, rid)
        # played to the end: the record is the plays that stand, and each take-back
        # lists the plays it undid (the person's and the bot's reply)
        record = await service.deal_record(rid, 1)
        deal = service.rooms[rid].state.deal
        assert deal is not None
        assert [(m["card"], tuple(m["take"])) for m in record["moves"]] == [
            tuple(x) for x in deal.moves
        ]
        undone = [m for m in record["assists"] if m["kind"] == "takeback"]
        assert [len(m["moves"]) for m in undone] == [2, 2]
    finally:
        await service.stop()
        await stack.aclose()


def test_a_flood_of_take_backs_undoes_exactly_the_plays_that_stood(store_url: str) -> None:
    run_async(flooded(store_url))
