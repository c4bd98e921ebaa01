"""A play through the room service: who may play, when, and what is counted
(app/rooms/commands/play.py), on each store (memory, SQLite, PostgreSQL): a refusal
leaves the stored room as it was, and every play is stored (the stores' own promises
are tests/rooms/test_store_contract.py)."""

from __future__ import annotations

import random

import pytest

from app.broker import MemoryBroker
from app.core.errors import ServiceError
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async


async def stored_seq(service: RoomService, rid: str) -> int:
    """The room's seq as the store holds it (what another process would load)."""
    stored = await service.unit.store.load_state(rid)
    assert stored is not None
    return stored.seq


async def refusals_and_counts(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            await refuse_and_play(service)
        finally:
            await service.stop()


async def refuse_and_play(service: RoomService) -> None:
    room = await service.execute(
        NewRoom(2, "Ann", RuleSet.from_dict({"match_deals": 1}), 0, RoomOptions(bot_delay=0))
    )
    rid = room.room_id
    with pytest.raises(ServiceError) as early:
        await service.execute(PlayCard(rid, 0, "AS", [], play_id="m0"))
    assert early.value.code == "not_your_turn", "the game has not started"
    await service.execute(JoinRoom(rid, "Bo"))
    rt = await service.runtime(rid)
    seat = rt.state.to_move
    assert seat is not None
    move = rt.state.view(seat)["legal"][0]
    with pytest.raises(ServiceError) as spectator:
        await service.execute(PlayCard(rid, None, move["card"], move["take"], play_id="m1"))
    assert spectator.value.code == "unauthorized"
    seq = rt.state.seq
    with pytest.raises(ServiceError) as late:  # a server move chosen for an older position
        await service.execute(
            PlayCard(rid, seat, move["card"], move["take"], server="srv:clock:1", at_seq=seq - 1)
        )
    assert late.value.code == "not_your_turn" and rt.state.seq == seq
    deal = rt.state.deal
    assert deal is not None
    other = next(c for c in deal.hands[1 - seat] if c not in deal.hands[seat])
    with pytest.raises(ServiceError) as foreign:  # the engine names what is wrong
        await service.execute(PlayCard(rid, seat, other, [], play_id="m2"))
    assert foreign.value.code == "not_in_hand" and "hand" in foreign.value.message
    assert rt.state.seq == seq == await stored_seq(service, rid), "nothing stored"
    assert service.moves_committed == 0, "refusals are not moves"
    rng = random.Random(2)
    n = 0
    while rt.state.status == "playing":
        seat = rt.state.to_move
        assert seat is not None
        move = rng.choice(rt.state.view(seat)["legal"])
        n += 1
        await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id=f"m{n}"))
        assert service.moves_committed == n
    with pytest.raises(ServiceError) as over:
        await service.execute(PlayCard(rid, 0, "AS", [], play_id="after"))
    assert over.value.code == "deal_over", "the match is over"
    assert service.moves_committed == n
    assert await stored_seq(service, rid) == rt.state.seq, "every play stored"


def test_a_play_is_refused_before_the_start_to_spectators_late_and_after_the_end(
    store_url: str,
) -> None:
    run_async(refusals_and_counts(store_url))
