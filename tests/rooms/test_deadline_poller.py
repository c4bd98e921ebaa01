"""Correspondence rooms run with nobody connected (app/rooms/deadline_poller.py, issue
32), on the in-memory store, SQLite and PostgreSQL: a person's deadline plays a clock
move for them, bots move, three clock moves in a row hand the seat to a bot until its
player comes back, two services sharing a database fire each deadline once, and a
room nobody is at is held in no service's memory."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

import pytest

from app.broker import MemoryBroker
from app.core.errors import ErrorCode, ServiceError
from app.core.outbox import DEADLINE_NEAR, TURN_CHANGED, StoredEvent, body_int
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard, SetVacation
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.events import AutoplaySet, Played
from app.rooms.domain.state import RoomOptions, RoomState
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from app.rooms.store import DueDeadline, RoomStore
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.outbox.dispatching import dispatching
from tests.waiting import wait_until_async

DAY = 0.4
"""Seconds of a test room's "day" (its time per move, with ``days_per_move`` 1)."""
SINGLE = RuleSet.from_dict({"single_pack": True})


def corr(days_per_move: int = 1, day: float = DAY, **extra: Any) -> RoomOptions:
    return RoomOptions(
        pace="correspondence",
        days_per_move=days_per_move,
        day_seconds=day,
        bot_delay=0,
        deal_pause=0,
        **extra,
    )


def service_on(store: RoomStore, **settings: Any) -> RoomService:
    timing = {"default_bot_delay": 0, "deadline_poll": 0.2, "bots_only_delay": 0.05, **settings}
    return RoomService(store, MemoryBroker(), ServiceSettings(**timing))


async def stored(store: RoomStore, room_id: str) -> RoomState:
    state = await store.load_state(room_id)
    assert state is not None
    return state


async def events(store: RoomStore, room_id: str) -> list[Any]:
    return [e.body for e in await store.events_after(room_id, 0)]


async def deadline_plays_for_the_absent_until_a_bot_takes_the_seat(url: str) -> None:
    async with open_store(url) as store:
        service = service_on(store)
        await service.start()
        try:
            made = await service.execute(NewRoom(2, "Ann", SINGLE, 1, corr()))
            rid = made.room_id

            async def handed_to_bot() -> bool:
                return (await stored(store, rid)).seats[0].autoplay

            await wait_until_async(handed_to_bot, 30, message="Ann's seat handed to a bot")
            bodies = await events(store, rid)
            ann = [b for b in bodies if isinstance(b, Played) and b.seat == 0]
            assert [b.client_id.split(":")[1] for b in ann[:3]] == ["clock"] * 3
            handed = next(i for i, b in enumerate(bodies) if isinstance(b, AutoplaySet))
            assert bodies[handed] == AutoplaySet(0, True)
            assert bodies[handed - 1] == ann[2]  # in the write of the third clock move
            assert service.stats.timer_moves.get("clock") == 3, (service.stats.timer_moves, bodies)
            assert service.stats.timer_moves.get("bot", 0) >= 2
            # Ann comes back: connecting takes her seat back from the bot, as a stand-in
            # seat is taken back in a live room (app/rooms/connections.py)
            inbox = Inbox()
            await service.connect(rid, 0, inbox, None)

            async def hers_again() -> bool:
                return not (await stored(store, rid)).seats[0].autoplay

            await wait_until_async(hers_again, 10, message="Ann's seat is hers again")
            assert rid in service.rooms
            await service.disconnect(rid, 0, inbox)
            assert rid not in service.rooms  # she left: the room left memory
        finally:
            await service.stop()


def test_a_deadline_plays_for_the_absent_and_three_hand_the_seat_to_a_bot(
    store_url: str,
) -> None:
    run_async(deadline_plays_for_the_absent_until_a_bot_takes_the_seat(store_url))


async def two_services_fire_each_deadline_once(url: str) -> None:
    async with AsyncExitStack() as stack:
        one = await stack.enter_async_context(open_store(url))
        two = one if url == "memory" else await stack.enter_async_context(open_store(url))
        a, b = service_on(one), service_on(two)
        for s in (a, b):
            await s.start()
            stack.push_async_callback(s.stop)
        rooms = []
        for n in range(3):
            made = await a.execute(NewRoom(2, "Ann", SINGLE, 0, corr()))
            await b.execute(JoinRoom(made.room_id, f"Bo{n}"))
            rooms.append(made.room_id)

        async def clock_moves() -> int:
            total = 0
            for rid in rooms:
                total += sum(
                    1
                    for body in await events(one, rid)
                    if isinstance(body, Played) and (body.client_id or "").startswith("srv:clock")
                )
            return total

        async def enough() -> bool:
            return await clock_moves() >= 9

        await wait_until_async(enough, 30, message="nine clock moves")
        cut = 0  # claims still firing when their service stops: stop cancels them
        for s in (a, b):
            cut += sum(1 for task in s.deadlines.firing if not task.done())
            await s.stop()
        made = await clock_moves()
        claimed = sum(s.stats.deadlines_claimed.get("move", 0) for s in (a, b))
        played = sum(s.stats.timer_moves.get("clock", 0) for s in (a, b))
        bot = sum(s.stats.timer_moves.get("standin", 0) for s in (a, b))
        # every clock move stored was made once, by one service: none was fired twice;
        # a move a stopped service's firing had committed when the stop cancelled it is
        # stored but not counted (a loaded CI run stored 10 and counted 9, with one cut)
        assert played <= made <= played + cut, (played, made, cut)
        # and every claim made one move, but those cut short by the stop (their rows'
        # claims run out and another process fires them: a CI run caught one in flight)
        assert played + bot <= claimed <= played + bot + cut, (claimed, played, bot, cut)
        # moves were fired through claims (which of the two services claimed them is a race:
        # asking it of one service failed in CI when the other took them all)
        assert claimed > 0 or url == "memory"


def test_two_services_on_one_database_fire_each_deadline_once(store_url: str) -> None:
    run_async(two_services_fire_each_deadline_once(store_url))


async def rooms_nobody_is_at_leave_memory(url: str) -> None:
    async with open_store(url) as store:
        service = service_on(store)
        await service.start()
        try:
            for n in range(20):
                made = await service.execute(NewRoom(2, "Ann", SINGLE, 0, corr(7, 86400.0)))
                rid = made.room_id
                bo = await service.execute(JoinRoom(rid, f"Bo{n}"))
                state = (await service.runtime(rid)).state
                seat = state.to_move
                assert seat is not None
                inbox = Inbox()
                await service.connect(rid, seat, inbox, None)
                move = service.rooms[rid].state.view(seat)["legal"][0]
                await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="m1"))
                await service.disconnect(rid, seat, inbox)
                summary = await service.summary(rid)  # a read loads it, and lets it go
                assert summary["seats"][1]["name"] == f"Bo{n}" and bo.seat == 1
            assert service.rooms == {}
        finally:
            await service.stop()


def test_correspondence_rooms_nobody_is_at_are_held_in_no_memory(store_url: str) -> None:
    run_async(rooms_nobody_is_at_leave_memory(store_url))


async def bad_vacations_change_nothing(url: str) -> None:
    async with open_store(url) as store:
        service = service_on(store)
        await service.start()
        try:
            live = await service.execute(NewRoom(2, "Ann", SINGLE, 1, RoomOptions(bot_delay=0)))
            made = await service.execute(NewRoom(2, "Ann", SINGLE, 0, corr(7, 86400.0)))
            rid = made.room_id
            before = (await stored(store, rid)).seq
            with pytest.raises(ServiceError) as waiting:
                await service.execute(SetVacation(rid, 0, True))
            assert waiting.value.code == RoomCode.NOT_YOUR_TURN  # not started yet
            await service.execute(JoinRoom(rid, "Bo"))
            before = (await stored(store, rid)).seq
            refusals = [
                (rid, None, True, ErrorCode.UNAUTHORIZED),
                (live.room_id, 0, True, RoomCode.NOT_CORRESPONDENCE),
            ]
            for room, seat, on, code in refusals:
                with pytest.raises(ServiceError) as refused:
                    await service.execute(SetVacation(room, seat, on))
                assert refused.value.code == code
            await service.execute(SetVacation(rid, 1, False))  # not on vacation: nothing to write
            assert (await stored(store, rid)).seq == before
            await service.execute(SetVacation(rid, 1, True))
            await service.execute(SetVacation(rid, 1, True))  # on already: nothing more
            state = await stored(store, rid)
            assert state.seq == before + 1 and state.corr is not None
            assert state.corr.vacations[1].since is not None
            # a vacation that ran out: none is left (a room whose day is 0.1 s, five of
            # them of vacation, seven per move: nobody's deadline falls meanwhile)
            short = await service.execute(NewRoom(2, "Ann", SINGLE, 0, corr(7, 0.1)))
            await service.execute(JoinRoom(short.room_id, "Bo"))
            await service.execute(SetVacation(short.room_id, 1, True))
            await asyncio.sleep(0.6)
            for _ in range(2):
                with pytest.raises(ServiceError) as none_left:
                    await service.execute(SetVacation(short.room_id, 1, True))
                assert none_left.value.code == RoomCode.NO_VACATION_LEFT
                await service.execute(SetVacation(short.room_id, 1, False))
            state = await stored(store, short.room_id)
            assert state.corr is not None and state.corr.vacations[1].left == 0
        finally:
            await service.stop()


def test_a_vacation_is_refused_to_spectators_live_rooms_and_when_used_up(store_url: str) -> None:
    run_async(bad_vacations_change_nothing(store_url))


class Told:
    """Web Push's place as a subscriber of the outbox: what it is handed to tell."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, int, int]] = []
        self.warnings: list[tuple[str, int, int, int]] = []

    async def __call__(self, event: StoredEvent) -> None:
        b = event.body
        if event.kind == TURN_CHANGED:
            self.turns.append((event.room_id, body_int(b, "turn"), body_int(b, "seat")))
        else:
            hours = body_int(b, "hours")
            self.warnings.append((event.room_id, body_int(b, "seq"), body_int(b, "seat"), hours))


async def players_are_told_with_nobody_connected(url: str) -> None:
    async with open_store(url) as store:
        service = service_on(store, notice_delay=0)
        told = Told()
        await service.start()
        try:
            async with dispatching(service, store, told=([TURN_CHANGED, DEADLINE_NEAR], told)):
                made = await service.execute(NewRoom(2, "Ann", SINGLE, 0, corr(2, 1.2)))
                rid = made.room_id
                await service.execute(JoinRoom(rid, "Bo"))
                first = await stored(store, rid)
                assert first.corr is not None and first.to_move is not None
                turn = (rid, first.corr.turn_seq, first.to_move)

                async def clock_moved() -> bool:
                    return (await stored(store, rid)).seq > first.seq

                await wait_until_async(clock_moved, 20, message="the first clock move")

                async def warned() -> bool:
                    return len(told.warnings) >= 2

                await wait_until_async(warned, 20, message="both warnings handed on")
            # the turn notice and the warnings a "day" and an "hour" before its
            # deadline are domain events of the outbox, each handed on once, with nobody
            # connected to the room (Web Push looks then whether the turn still waits)
            assert told.turns.count(turn) == 1, told.turns
            assert told.warnings[:2] == [(*turn, 24), (*turn, 1)]
            assert service.stats.deadlines_claimed.get("warn24") == 1
        finally:
            await service.stop()


def test_players_are_told_of_their_turn_and_warned_with_nobody_connected(store_url: str) -> None:
    run_async(players_are_told_with_nobody_connected(store_url))


async def stale_claim_is_skipped(url: str) -> None:
    async with open_store(url) as store:
        service = service_on(store)
        await service.start()
        try:
            made = await service.execute(NewRoom(2, "Ann", SINGLE, 0, corr(7, 86400.0)))
            rid = made.room_id
            await service.execute(JoinRoom(rid, "Bo"))
            state = (await service.runtime(rid)).state
            assert state.corr is not None and state.to_move is not None
            before = await events(store, rid)
            # a row for a turn the room has left (a claim that ran out and was taken
            # again, the move made meanwhile): nothing is played, it counts as skipped
            old = DueDeadline(rid, "move", state.corr.turn_seq - 1, state.to_move, 0)
            await service.deadlines._fire(old)
            assert service.stats.deadlines_skipped == 1
            assert service.stats.deadlines_released == 0
            assert await events(store, rid) == before
        finally:
            await service.stop()


def test_a_claim_whose_room_moved_on_plays_nothing_and_counts_as_skipped(store_url: str) -> None:
    """What the claims' arithmetic rests on (claimed = moves + released + skipped,
    tests/server/test_correspondence.py): a stale row's claim is counted, not lost."""
    run_async(stale_claim_is_skipped(store_url))
