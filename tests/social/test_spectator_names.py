"""Nobody chats or sits down as someone they are not (issue 34), on a real database: a
spectator's line is marked ``spectator`` (live, in the backlog and in the history), a
spectator may not chat under a seated player's name or a bot's, and no person may take
a seat under a bot's name in any of the client's languages."""

from __future__ import annotations

import pytest

from app.broker import MemoryBroker
from app.core.errors import ErrorCode, ServiceError
from app.db.social import ChatRows
from app.engine.rules import RuleSet
from app.realtime.audience import Audience
from app.rooms.domain.commands import JoinRoom, NewRoom
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.social.chat import Chat
from tests.conftest import open_store, run_async
from tests.inbox import Inbox


async def _refused(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as caught:
        await call
    return caught.value.code


async def spectators_and_names(url: str) -> None:
    async with open_store(url) as repo:
        service = RoomService(repo, MemoryBroker())
        audience = Audience()
        rows = ChatRows(repo)
        chat = Chat(service, audience, rows)
        try:
            # Bots' names are no one's, whatever the language, case or spacing.
            for name in ("Bot 1", "dator 2", "ROBOT3", "Maskin"):
                code = await _refused(
                    service.execute(NewRoom(3, name, RuleSet(), 1, RoomOptions()))
                )
                assert code == ErrorCode.NAME_RESERVED, name
            room = await service.execute(NewRoom(3, "Ann", RuleSet(), 1, RoomOptions()))
            rid = room.room_id
            assert (
                await _refused(service.execute(JoinRoom(rid, "bot 1"))) == ErrorCode.NAME_RESERVED
            )
            await service.execute(JoinRoom(rid, "Bo Lind"))

            player, watcher = Inbox(), Inbox()
            audience.attach(rid, player, 0)
            audience.attach(rid, watcher, None)
            for name in ("ann", "BoLind", " bo  lind ", "Bot 1", "Dator 7"):
                refused = await _refused(chat.say(rid, None, name, "it is me"))
                assert refused == ErrorCode.NAME_RESERVED, name
            assert await rows.lines(rid) == [], "a refused line is not stored"

            await chat.say(rid, 0, "Bot 1", "hello")  # a player speaks as their seat
            await chat.say(rid, None, "Cleo", "hi all")
            await chat.say(rid, None, None, "anonymous")
            lines = [m for m in player.sent if m["type"] == "chat"]
            assert [(m["name"], m["seat"], m["spectator"]) for m in lines] == [
                ("Ann", 0, False),
                ("Cleo", None, True),
                (None, None, True),
            ]
            assert [m for m in watcher.sent if m["type"] == "chat"] == lines

            late = Inbox()
            await chat.backlog(rid, late, None)
            [history] = late.sent
            assert [m["spectator"] for m in history["messages"]] == [False, True, True]
            page = await chat.history(rid, 0, 10)
            assert [m["spectator"] for m in page["messages"]] == [False, True, True]
        finally:
            await service.stop()


def test_spectators_are_marked_and_may_not_pass_for_players_or_bots(database_url: str) -> None:
    run_async(spectators_and_names(database_url))
