"""A rematch is offered and accepted, not imposed (issue 33), through the room service
on every store: the offer, the others' answers, the deadline's timer, and an offer
that outlives a restart.  The rules of each answer, on the pure state, are in
tests/rooms/commands/test_rematch.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest

from app.broker import MemoryBroker
from app.core.errors import ErrorCode
from app.engine.rules import RuleSet
from app.rooms.domain.commands import (
    CloseRoom,
    DeclineRematch,
    JoinRoom,
    NewRoom,
    PlayCard,
    Rematch,
)
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.events import REMATCH_EXPIRE
from app.rooms.domain.state import FINISHED, PLAYING, RoomOptions
from app.rooms.service import RoomService, ServiceError
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async

RULES = RuleSet(single_pack=True, match_deals=1)
"""Two players, one short deal: a match over in about fifty moves."""


def _settings(**settings: Any) -> ServiceSettings:
    return ServiceSettings(**{"default_bot_delay": 0, **settings})


async def _finished_room(service: RoomService, bots: int = 0) -> tuple[str, list[Inbox]]:
    """A two-seat room (Ann, and Bo or a bot) whose match is over, everyone connected."""
    room = await service.execute(
        NewRoom(2, "Ann", RULES, bots, RoomOptions(bot_delay=0, grace=600))
    )
    rid = room.room_id
    if not bots:
        await service.execute(JoinRoom(rid, "Bo"))
    inboxes = [Inbox() for _ in range(2 - bots)]
    for seat, inbox in enumerate(inboxes):
        await service.connect(rid, seat, inbox, None)
    rt = service.rooms[rid]
    while rt.state.status != FINISHED:
        st = rt.state
        seat = st.to_move
        if seat is None or st.bot_controls(seat):
            seq = st.seq
            await wait_until_async(lambda seq=seq: rt.state.seq != seq, 30, 0.01, "a bot move")
            continue
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"]))
    return rid, inboxes


def _on_every_store(
    url: str, test: Callable[[RoomService], Awaitable[None]], **settings: Any
) -> None:
    async def run() -> None:
        async with AsyncExitStack() as stack:
            store = await stack.enter_async_context(open_store(url))
            service = RoomService(store, MemoryBroker(), _settings(**settings))
            try:
                await test(service)
            finally:
                await service.stop()

    run_async(run())


async def _refused(code: str, command: Awaitable[None]) -> None:
    with pytest.raises(ServiceError) as refused:
        await command
    assert refused.value.code == code


async def offer_then_accept(service: RoomService) -> None:
    rid, (ann, bo) = await _finished_room(service)
    rt = service.rooms[rid]
    await service.execute(Rematch(rid, 0))
    st = rt.state
    assert st.status == FINISHED and st.match_no == 1, "one player's word starts nothing"
    offer = st.view(1)["rematch"]
    assert offer is not None and offer["by"] == 0 and offer["accepted"] == [0]
    told = [op for m in bo.sent if m["type"] == "patch" for op in m["ops"]]
    assert {"op": "replace", "path": "/rematch", "value": offer} in told, "Bo is shown the offer"
    before = len(ann.sent)
    await service.execute(Rematch(rid, 1))
    st = rt.state
    assert st.status == PLAYING and st.match_no == 2 and st.view(0)["rematch"] is None
    told = [op for m in ann.sent[before:] if m["type"] == "patch" for op in m["ops"]]
    assert {"op": "replace", "path": "/match_no", "value": 2} in told, "Ann is told of match 2"
    assert {"op": "replace", "path": "/rematch", "value": None} in told


def test_the_match_starts_once_every_seated_person_accepted(store_url: str) -> None:
    _on_every_store(store_url, offer_then_accept)


async def offer_then_decline(service: RoomService) -> None:
    rid, _ = await _finished_room(service)
    rt = service.rooms[rid]
    await _refused(RoomCode.NO_REMATCH_OFFER, service.execute(DeclineRematch(rid, 1)))
    await service.execute(Rematch(rid, 0))
    await service.execute(DeclineRematch(rid, 1))
    view = rt.state.view(0)
    assert view["rematch"] is None and view["status"] == FINISHED and view["match_no"] == 1
    assert view["rematch_ended"] == {"by": 0, "reason": "declined", "seat": 1}
    await _refused(RoomCode.NO_REMATCH_OFFER, service.execute(DeclineRematch(rid, 0)))


def test_a_decline_withdraws_the_offer(store_url: str) -> None:
    _on_every_store(store_url, offer_then_decline)


async def offer_lapses(service: RoomService) -> None:
    rid, _ = await _finished_room(service)
    rt = service.rooms[rid]
    await service.execute(Rematch(rid, 1))
    offer = rt.state.rematch
    assert offer is not None
    await wait_until_async(lambda: rt.state.rematch is None, 30, 0.02, "the offer to lapse")
    async with rt.lock:  # the expiry is applied a moment before its commit ends
        st = rt.state
        events = await service.repo.events_after(rid, st.seq - 1)
    assert st.view(0)["rematch_ended"] == {"by": 1, "reason": "expired", "seat": None}
    assert st.changed_at >= offer.deadline, "not before its deadline"
    assert st.status == FINISHED and st.match_no == 1
    assert [e.kind for e in events] == [REMATCH_EXPIRE], "stored like any other event"


def test_an_unanswered_offer_lapses_at_its_deadline(store_url: str) -> None:
    _on_every_store(store_url, offer_lapses, rematch_timeout=0.5)


async def refusals(service: RoomService) -> None:
    room = await service.execute(NewRoom(2, "Ann", RULES, 0, RoomOptions(grace=600)))
    rid = room.room_id
    await service.execute(JoinRoom(rid, "Bo"))
    await _refused(RoomCode.NOT_FINISHED, service.execute(Rematch(rid, 0)))
    await _refused(RoomCode.NOT_FINISHED, service.execute(DeclineRematch(rid, 0)))
    rid, _ = await _finished_room(service)
    await _refused(ErrorCode.UNAUTHORIZED, service.execute(Rematch(rid, None)))
    await service.execute(Rematch(rid, 0))
    await _refused(ErrorCode.UNAUTHORIZED, service.execute(DeclineRematch(rid, None)))
    assert service.rooms[rid].state.view(None)["rematch"]["accepted"] == [0]
    await service.execute(CloseRoom(rid, "maintenance"))
    assert service.rooms[rid].state.view(None)["rematch"] is None, "a close withdraws it"
    await _refused(RoomCode.CLOSED, service.execute(Rematch(rid, 1)))


def test_spectators_a_match_in_play_and_a_closed_room_are_refused(store_url: str) -> None:
    _on_every_store(store_url, refusals)


async def alone_with_a_bot(service: RoomService) -> None:
    rid, _ = await _finished_room(service, bots=1)
    await service.execute(Rematch(rid, 0))
    st = service.rooms[rid].state
    assert st.status == PLAYING and st.match_no == 2, "the bot accepts: no one to wait for"
    assert st.view(0)["rematch"] is None


def test_a_person_alone_with_bots_starts_the_rematch_at_once(store_url: str) -> None:
    _on_every_store(store_url, alone_with_a_bot)


async def offer_survives_restart(url: str) -> None:
    settings = _settings(rematch_timeout=1.5)
    async with open_store(url) as store:
        first = RoomService(store, MemoryBroker(), settings)
        try:
            rid, _ = await _finished_room(first)
            await first.execute(Rematch(rid, 1))
            offer = first.rooms[rid].state.view(0)["rematch"]
        finally:
            await first.stop()
        again = RoomService(store, MemoryBroker(), settings)
        try:
            rt = await again.runtime(rid)
            assert rt.state.view(0)["rematch"] == offer, "the same offer, the same deadline"
            await again.connect(rid, 0, Inbox(), None)  # the timer runs while someone is there
            await wait_until_async(lambda: rt.state.rematch is None, 30, 0.02, "the expiry")
            assert rt.state.rematch_ended == {"by": 1, "reason": "expired", "seat": None}
            assert offer is not None and rt.state.changed_at >= offer["deadline"]
        finally:
            await again.stop()


def test_an_open_offer_and_its_deadline_survive_a_restart(store_url: str) -> None:
    run_async(offer_survives_restart(store_url))
