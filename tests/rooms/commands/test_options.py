"""The host's switch of spectators' chat, as a room command (app/rooms/commands/options.py)
and as the chat reads it back (``RoomService.table_facts``): only the host may switch it,
the switch is an event every reload sees, and switching to what it is writes nothing."""

from __future__ import annotations

import pytest

from app.broker import MemoryBroker
from app.core.errors import ServiceError
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, SetSpectatorChat
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.events import OptionChanged
from app.rooms.domain.results import TableFacts
from app.rooms.domain.state import RoomOptions
from app.rooms.memory import MemoryStore
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import run_async


async def switch() -> None:
    store = MemoryStore()
    service = RoomService(store, MemoryBroker(), ServiceSettings(bot_workers=1))
    try:
        made = await service.execute(NewRoom(2, "Ann", RuleSet(), 0, RoomOptions()))
        rid = made.room_id
        assert await service.table_facts(rid) == TableFacts(("Ann", None), False, True)
        await service.execute(JoinRoom(rid, "Bo"))
        assert await service.table_facts(rid) == TableFacts(("Ann", "Bo"), True, True)

        for seat in (1, None):  # a player who did not make the room, a spectator
            with pytest.raises(ServiceError) as refused:
                await service.execute(SetSpectatorChat(rid, seat, False))
            assert refused.value.code == RoomCode.NOT_HOST
        seq = service.rooms[rid].state.seq

        await service.execute(SetSpectatorChat(rid, 0, False))
        assert (await service.table_facts(rid)).spectator_chat is False
        assert service.rooms[rid].state.seq == seq + 1
        await service.execute(SetSpectatorChat(rid, 0, False))  # as it is: no event
        assert service.rooms[rid].state.seq == seq + 1

        stored = await store.events_after(rid, seq)
        assert [e.body for e in stored] == [OptionChanged(False)]
        reloaded = await store.load_state(rid)
        assert reloaded is not None and reloaded.options.spectator_chat is False
    finally:
        await service.stop()


def test_only_the_host_switches_spectators_chat_and_the_switch_is_an_event() -> None:
    run_async(switch())
