"""Turn notices through the outbox (app/rooms/turn_notice.py, issue 48), on the
in-memory store, SQLite and PostgreSQL: a person whose page is closed is told of
their turn once, no sooner than ``notice_delay`` after it began; not when their page
is open when it falls due, nor once they have moved; when their last page closes in
the middle of their turn; not while nobody is at a live room, and then once someone
comes back.

Web Push's subscriber (app/notify/turns.py) runs as the server wires it, over the
rooms' real ``TurnWatch``; only the teller at its end is this file's ``Told``, which
notes what Web Push would send.  Every wait is on the outbox (its events handled),
never on time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from app.broker import MemoryBroker
from app.core.clock import now_ms
from app.core.outbox import TURN_CHANGED
from app.engine.rules import RuleSet
from app.notify.turns import PushNotices
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from app.rooms.turn_notice import TurnWatch
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.outbox.dispatching import dispatching, undone_events
from tests.waiting import wait_until_async

NOTICE = 0.3
"""Seconds of the notice delay."""
ANN, BO = 0, 1
SINGLE = RuleSet.from_dict({"single_pack": True})


@dataclass
class Told:
    """Web Push's teller: each turn it would tell (the turn still waits), and when."""

    turns: list[tuple[str, int, int]] = field(default_factory=list)
    at_ms: list[int] = field(default_factory=list)

    async def turn_started(
        self,
        room_id: str,
        seq: int,
        seat: int,
        still: Callable[[], Awaitable[bool]] | None = None,
    ) -> None:
        if still is None or await still():
            self.turns.append((room_id, seq, seat))
            self.at_ms.append(now_ms())

    async def deadline_near(self, room_id: str, seq: int, seat: int, hours: int) -> None:
        raise AssertionError("no deadline in a live room")


@dataclass
class Table:
    service: RoomService
    store: object
    rid: str
    told: Told = field(default_factory=Told)
    pages: dict[int, Inbox] = field(default_factory=dict)

    @property
    def to_move(self) -> int | None:
        return self.service.rooms[self.rid].state.to_move

    @property
    def seq(self) -> int:
        return self.service.rooms[self.rid].state.seq

    async def play(self) -> None:
        """The seat to move plays its first legal move (from a page or not)."""
        st = self.service.rooms[self.rid].state
        seat = st.to_move
        assert seat is not None
        move = st.view(seat)["legal"][0]
        await self.service.execute(PlayCard(self.rid, seat, move["card"], tuple(move["take"])))

    async def play_until(self, seat: int) -> None:
        while self.to_move != seat:
            await self.play()

    async def open_page(self, seat: int) -> None:
        self.pages[seat] = Inbox()
        await self.service.connect(self.rid, seat, self.pages[seat], None)

    async def close_page(self, seat: int) -> None:
        await self.service.disconnect(self.rid, seat, self.pages.pop(seat))

    @asynccontextmanager
    async def notices(self) -> AsyncIterator[None]:
        """Web Push subscribed, as app/features.py wires it, while the block runs."""
        push = PushNotices(self.told, TurnWatch(self.service.unit))
        async with dispatching(
            self.service, self.store, push_turn=([TURN_CHANGED], push.turn_changed)
        ):
            yield

    async def all_handled(self) -> None:
        """Until every turn notice stored fell due and was handed over."""

        async def none_left() -> bool:
            return await undone_events(self.store, TURN_CHANGED) == 0

        await wait_until_async(none_left, 30, 0.02, "every turn notice handed over")


@asynccontextmanager
async def table(url: str) -> AsyncIterator[Table]:
    """Ann and Bo at a live table nobody has opened yet (grace long: nobody stands in)."""
    async with open_store(url) as store:
        settings = ServiceSettings(default_bot_delay=0, notice_delay=NOTICE)
        service = RoomService(store, MemoryBroker(), settings)
        try:
            made = await service.execute(NewRoom(2, "Ann", SINGLE, 0, RoomOptions(grace=600)))
            await service.execute(JoinRoom(made.room_id, "Bo"))
            yield Table(service, store, made.room_id)
        finally:
            await service.stop()


async def told_once_after_the_delay(url: str) -> None:
    async with table(url) as t:
        await t.play_until(ANN)
        await t.open_page(ANN)
        async with t.notices():
            began = now_ms()
            await t.play()  # Bo's turn, and no page of his is open
            assert t.to_move == BO
            turn = (t.rid, t.seq, BO)
            await wait_until_async(lambda: turn in t.told.turns, 30, 0.02, "Bo told")
            await t.all_handled()
        assert t.told.turns == [turn], "Bo once; never Ann, whose page is open"
        assert t.told.at_ms[0] >= began + NOTICE * 1000, "not before the notice delay"


def test_a_player_with_no_page_open_is_told_once_after_the_delay(store_url: str) -> None:
    run_async(told_once_after_the_delay(store_url))


async def not_told_with_the_page_open_or_after_moving(url: str) -> None:
    async with table(url) as t:
        await t.play_until(BO)  # nobody's page open: Bo's notice is stored
        seq = t.seq
        await t.open_page(ANN)
        await t.open_page(BO)  # ...and his page is open when it falls due
        async with t.notices():
            await t.all_handled()
        assert t.told.turns == []
        # (Web Push unsubscribed meanwhile, so that nothing falls due before he moves)
        await t.play()  # Bo plays from his page...
        await t.close_page(BO)  # ...and leaves: not his turn, nothing stored
        assert await undone_events(t.store, TURN_CHANGED) == 0
        await t.play()  # Ann's move: his turn, his page closed
        assert t.to_move == BO and t.seq > seq
        assert await undone_events(t.store, TURN_CHANGED) == 1
        await t.play()  # he moves (from another device) before it falls due
        async with t.notices():
            await t.all_handled()
        assert t.told.turns == []


def test_no_notice_when_the_page_is_open_or_the_player_has_moved(store_url: str) -> None:
    run_async(not_told_with_the_page_open_or_after_moving(store_url))


async def told_when_the_page_closes_mid_turn(url: str) -> None:
    async with table(url) as t:
        await t.open_page(ANN)
        await t.open_page(BO)
        async with t.notices():
            await t.play_until(BO)  # both pages open: nothing stored for these turns
            await t.all_handled()  # (the first turn's, stored before the pages opened)
            assert t.told.turns == []
            left = now_ms()
            await t.close_page(BO)
            turn = (t.rid, t.seq, BO)
            await wait_until_async(lambda: turn in t.told.turns, 30, 0.02, "Bo told")
            await t.all_handled()
        assert t.told.turns == [turn]
        assert t.told.at_ms[0] >= left + NOTICE * 1000, "a reload never rings"


def test_a_player_who_closes_the_page_mid_turn_is_told(store_url: str) -> None:
    run_async(told_when_the_page_closes_mid_turn(store_url))


async def paused_then_told_when_someone_comes_back(url: str) -> None:
    async with table(url) as t:
        await t.play_until(BO)
        turn = (t.rid, t.seq, BO)
        async with t.notices():
            await t.all_handled()
            assert t.told.turns == [], "nobody at the room: the game is paused"
            await t.open_page(ANN)  # Ann comes back: the game goes on, Bo is told
            await wait_until_async(lambda: turn in t.told.turns, 30, 0.02, "Bo told")
            await t.all_handled()
        assert t.told.turns == [turn]


def test_nobody_is_told_while_nobody_is_at_the_room_then_told_on_return(
    store_url: str,
) -> None:
    run_async(paused_then_told_when_someone_comes_back(store_url))
