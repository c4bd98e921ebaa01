"""app/social/chat.py on a real database: a line another process announced is read back
even when the first reads do not find it, and one never found is logged, not dropped
in silence (the suspected cause of a cross-process chat line that never arrived)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.broker import MemoryBroker
from app.db.social import ChatRows
from app.engine.rules import RuleSet
from app.realtime.audience import Audience
from app.rooms.domain.commands import NewRoom
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.social.chat import Chat
from tests.conftest import open_store, run_async
from tests.inbox import Inbox


async def late_line(url: str, caplog: pytest.LogCaptureFixture) -> None:
    async with open_store(url) as repo:
        service = RoomService(repo, MemoryBroker())
        audience = Audience()
        rows = ChatRows(repo)
        chat = Chat(service, audience, rows)
        room = await service.execute(NewRoom(2, "Ann", RuleSet(), 0, RoomOptions()))
        rid = room.room_id
        inbox = Inbox()
        audience.attach(rid, inbox, None)
        try:
            # The announcement arrives before the line can be read (as when the other
            # process's commit is not yet visible): the reader tries again.
            reading = asyncio.create_task(chat.on_broker(rid, 1))
            await asyncio.sleep(0.25)
            line_id = await rows.add(rid, 0, "Ann", "hej", False, 1)
            assert line_id == 1
            await asyncio.wait_for(reading, 10)
            assert [m["text"] for m in inbox.sent if m["type"] == "chat"] == ["hej"]

            # A line that never turns up is given up on, and said so in the log.
            with caplog.at_level(logging.INFO, logger="krypkasino.chat"):
                await asyncio.wait_for(chat.on_broker(rid, 999), 10)
            assert [m["text"] for m in inbox.sent if m["type"] == "chat"] == ["hej"]
            assert any("not delivered" in r.getMessage() for r in caplog.records)
        finally:
            await service.stop()


def test_a_line_announced_before_it_can_be_read_still_arrives(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    run_async(late_line(database_url, caplog))
