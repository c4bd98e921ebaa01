"""The room service: the one face the API and the features see of the rooms.

It builds the rooms' unit of work (app/rooms/unit.py) and the handlers over it,
wires the timers in as the unit's scheduler, and hands each public call to its
handler: every command (a value of app/rooms/domain/commands.py) through
``execute`` to its line of app/rooms/commands/table.py, the write path
(app/rooms/writes.py), catching up with other processes (sync.py), the
timers (automation.py, pacing.py), attaching connections (connections.py)
and the rooms in memory (registry.py).  Nothing in this package imports this
module: it is the top of the package, and every arrow runs down from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from app import wire
from app.broker import Broker
from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.core.loops import Doorbell
from app.core.tokens import creator_key, hash_token

from . import registry
from .attendance import room_attended
from .automation import Automation
from .botrunner import BotRunner, Chooser
from .commands import table
from .commands.context import Context
from .commands.seats import check_room_caps
from .connections import Connections
from .deadline_poller import DeadlinePoller
from .domain.commands import A, Command
from .domain.errors import RoomPurged
from .domain.match_end import LatestMatch, latest_match
from .domain.record_types import DealRecord
from .domain.records import deal_record
from .domain.results import RoomSummary, TableFacts
from .domain.state import PLAYING, RoomOptions
from .leases import Leases, LocalLeases, StoreLeases
from .runtime import RoomRuntime
from .settings import ServiceSettings
from .stats import ServiceStats
from .store import RoomStore
from .sync import RoomSync, spectators
from .unit import BrokerHandler, RoomsUnit
from .writes import WritePath

__all__ = ["RoomService", "ServiceError", "ServiceSettings"]


class RoomService:
    def __init__(
        self,
        repo: RoomStore,
        broker: Broker,
        settings: ServiceSettings | None = None,
        *,
        chooser: Chooser | None = None,
        leases: Leases | None = None,
    ) -> None:
        settings = settings or ServiceSettings()
        self.bots = BotRunner(
            settings.bot_budget,
            settings.bot_workers,
            settings.bot_queue,
            seeded_worlds=settings.seeded_worlds,
        )
        if leases is None:
            leases = (
                StoreLeases(repo, broker.origin, settings.lease_seconds)
                if getattr(broker, "shared", False)
                else LocalLeases()
            )
        self.unit = RoomsUnit(
            store=repo, broker=broker, settings=settings, leases=leases,
            chooser=chooser or self.bots,
        )  # fmt: skip
        self.writes = WritePath(self.unit)
        self.sync = RoomSync(self.unit, self.writes)
        self.ctx = Context(self.unit, self.writes, self.sync)
        """What every command's handler is handed (app/rooms/commands/context.py)."""
        self.automation = Automation(self.ctx)
        self.unit.scheduler = self.automation
        self.connections = Connections(self.ctx)
        self.deadlines = DeadlinePoller(self.ctx)
        self.unit.deadlines_changed = self.deadlines.poke
        self._housekeeping: asyncio.Task[None] | None = None

    # The unit's parts, as the metrics, the operators' code and the tests read them.
    @property
    def repo(self) -> RoomStore:
        return self.unit.store

    @property
    def broker(self) -> Broker:
        return self.unit.broker

    @property
    def settings(self) -> ServiceSettings:
        return self.unit.settings

    @settings.setter
    def settings(self, settings: ServiceSettings) -> None:
        self.unit.settings = settings

    @property
    def stats(self) -> ServiceStats:
        return self.unit.stats

    @property
    def leases(self) -> Leases:
        return self.unit.leases

    @property
    def rooms(self) -> dict[str, RoomRuntime]:
        return self.unit.rooms

    @property
    def closing(self) -> bool:
        return self.unit.closing

    @property
    def chooser(self) -> Chooser:
        return self.unit.chooser

    @chooser.setter
    def chooser(self, chooser: Chooser) -> None:
        self.unit.chooser = chooser

    @property
    def on_move(self) -> Callable[[float], None] | None:
        return self.unit.on_move

    @on_move.setter
    def on_move(self, hook: Callable[[float], None] | None) -> None:
        self.unit.on_move = hook

    @property
    def on_broker_kind(self) -> dict[str, BrokerHandler]:
        return self.unit.on_broker_kind

    @property
    def doorbell(self) -> Doorbell:
        """Rung after each commit that stored domain events (app/core/outbox.py): the
        outbox's dispatcher waits on it."""
        return self.unit.doorbell

    @property
    def moves_committed(self) -> int:
        return self.unit.stats.moves_committed

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        await self.broker.start(self.sync.on_broker, self.sync.reconcile)
        self._housekeeping = asyncio.create_task(self.sync.housekeep())
        self.deadlines.start()

    async def stop(self) -> None:
        """Graceful shutdown: wait for moves in flight, then ask clients to reconnect.

        Safe to call twice (the server calls it before closing sockets, and the
        app's lifespan again at the very end)."""
        if self.unit.closing:
            return
        self.unit.closing = True
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        await self.deadlines.stop()
        # A copy: while this waits for a room's lock, cancelled timers and evictions
        # may take other rooms out of ``rooms``.
        for rt in list(self.rooms.values()):
            if rt.recovery is not None:
                rt.recovery.cancel()
            async with rt.lock:  # a move in flight finishes first, then its timers stop
                self.automation.cancel_all(rt)
                rt.hub.broadcast(wire.RECONNECT)
        await self.leases.release(list(self.rooms))
        self.bots.close()
        await self.broker.stop()

    def evict_idle(self, now: float | None = None) -> list[str]:
        return registry.evict_idle(self.unit, now)

    async def runtime(self, room_id: str) -> RoomRuntime:
        return await registry.runtime(self.unit, room_id)

    def forget_purged(self, purged: list[RoomPurged]) -> int:
        return registry.forget_purged(self.unit, purged)

    # -------------------------------------------------------------- commands

    async def execute(self, command: Command[A]) -> A:
        """Run one command that changes a room (app/rooms/domain/commands.py: a frozen
        dataclass each, typed by its answer) through its handler in the one table
        (app/rooms/commands/table.py): ``await rooms.execute(PlayCard(...))`` is a
        ``PlayAnswer``.  A refusal raises ``ServiceError`` and changes nothing.

        One entry rather than a method per command: a new command is its dataclass,
        its handler and a line of the table, and this module does not grow."""
        return await table.execute(self.ctx, command)

    async def check_room_caps(self, creator: str, ends_after: float | None = None) -> None:
        """Refuse (429 ``too_many_rooms``, 503 when the server is full) a room the
        address ``creator`` would make now: what a request that leads to a room later
        (a pairing ticket) or makes several checks first."""
        await check_room_caps(self.unit, creator_key(creator), ends_after)

    async def attended(self, room_id: str) -> bool:
        """Someone (player or spectator) has the room open, here or on another process."""
        return await room_attended(self.unit, room_id)

    # ---------------------------------------------------------------- reads

    async def seat_for_token(self, room_id: str, token: str) -> int | None:
        try:
            return await self.repo.seat_for_token(room_id, hash_token(token))
        except Unavailable as exc:
            raise unavailable() from exc

    async def summary(self, room_id: str) -> RoomSummary:
        rt = await self.runtime(room_id)
        async with rt.lock:  # never a state whose commit is still in flight
            await self.writes.ensure_fresh(rt)
            out = rt.state.summary()
        connected = await self.sync.connected(rt)
        for seat in out["seats"]:
            seat["connected"] = connected[seat["seat"]]
        registry.unload_if_unattended(self.unit, room_id)  # a read keeps no room (issue 32)
        return out

    async def options(self, room_id: str) -> RoomOptions:
        """The room's settings that are not rules (whether it is rated, say)."""
        options = (await self.runtime(room_id)).state.options
        registry.unload_if_unattended(self.unit, room_id)
        return options

    async def table_facts(self, room_id: str) -> TableFacts:
        """Who sits where by name, whether a match is played, and whether spectators'
        lines reach the players: what the chat checks a line against (app/social)."""
        st = (await self.runtime(room_id)).state
        names = tuple(s.name for s in st.seats)
        return TableFacts(names, st.status == PLAYING, st.options.spectator_chat)

    async def latest_match(self, room_id: str) -> LatestMatch | None:
        """The room's latest match as stored (not as held here): None for no such room."""
        state = await self.repo.load_state(room_id)
        return None if state is None else latest_match(state)

    async def spectators(self, room_id: str, players: int) -> int:
        """Spectators connected to the room on every process (the lobby's list)."""
        return await spectators(self.unit, room_id, players)

    async def deal_record(self, room_id: str, deal_no: int) -> DealRecord:
        rt = await self.runtime(room_id)
        registry.unload_if_unattended(self.unit, room_id)
        try:
            stored = await self.repo.deal_record(room_id, rt.state.match_no, deal_no)
        except Unavailable as exc:
            raise unavailable() from exc
        if stored is None:
            raise ServiceError(
                ErrorCode.NOT_FOUND, f"deal {deal_no} is not over (or does not exist)"
            )
        return deal_record(stored)

    async def room_id_for_code(self, code: str) -> str:
        try:
            room_id = await self.repo.room_id_for_code(code.upper())
        except Unavailable as exc:
            raise unavailable() from exc
        if room_id is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no room with that code")
        return room_id

    # ------------------------------------------------------------ connections

    async def connect(
        self, room_id: str, seat: int | None, sink: Any, last_seq: int | None
    ) -> None:
        """Attach a connection, welcomed and brought up to date first
        (app/rooms/connections.py)."""
        await self.connections.connect(room_id, seat, sink, last_seq)

    async def disconnect(self, room_id: str, seat: int | None, sink: Any) -> None:
        await self.connections.disconnect(room_id, seat, sink)

    # ---------------------------------------------------------------- helpers

    async def retrying(self, command: Callable[[], Awaitable[Any]]) -> None:
        await self.unit.retrying(command)

    async def safe(self, coro: Coroutine[Any, Any, Any]) -> None:
        await self.unit.safe(coro)

    async def announce(self, room_id: str, seq: int, kind: str) -> None:
        """Tell the other processes that ``kind`` happened in the room (best effort:
        logged, never raised); each answers it by its handler of ``kind``
        (``on_broker_kind``: a chat line, a reaction)."""
        await self.unit.safe(self.unit.broker.publish(room_id, seq, kind))
