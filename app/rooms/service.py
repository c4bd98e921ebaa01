"""The room service: every change to a room goes through here.

This module holds the commands (play, rematch, autoplay, close), the reads, and
the rooms' life in memory (loaded on first use, dropped when idle), and is the one
public face of the rooms.  The jobs around them have modules of their own:
``seating`` (new rooms and seats: create, join), ``connections`` (attach and
detach a connection), ``writes`` (validate, apply, commit, then send; never run
ahead of the database), ``automation`` (bot turns, the clock, grace take-overs,
under a lease), ``sync`` (catching up with other processes, presence) and
``botrunner`` (where bots think).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from app import wire
from app.broker import Broker
from app.engine.errors import MoveError
from app.engine.rules import RuleSet

from .automation import Automation
from .botrunner import BotRunner, Chooser
from .connections import Connections
from .errors import RETRYABLE, ErrorCode, RoomPurged, ServiceError, refuse_closed, unavailable
from .events import AUTOPLAY, CLOSE, PLAY
from .hub import Hub
from .leases import Leases, LocalLeases, StoreLeases
from .records import deal_record
from .runtime import RoomRuntime
from .seating import Seating
from .settings import ServiceSettings
from .state import FINISHED, PLAYING, RoomOptions, RoomState
from .stats import ServiceStats
from .store import RoomStore, Unavailable
from .sync import RoomSync
from .tokens import hash_token
from .writes import Spec, WritePath, match_spec

__all__ = ["RoomService", "ServiceError", "ServiceSettings"]

log = logging.getLogger("krypkasino.rooms")


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
        self.repo = repo
        self.broker = broker
        self.settings = settings or ServiceSettings()
        self.rooms: dict[str, RoomRuntime] = {}
        self._load_lock = asyncio.Lock()
        self.bots = BotRunner(
            self.settings.bot_budget, self.settings.bot_workers, self.settings.bot_queue
        )
        self.chooser: Chooser = chooser or self.bots
        if leases is None:
            leases = (
                StoreLeases(repo, broker.origin, self.settings.lease_seconds)
                if getattr(broker, "shared", False)
                else LocalLeases()
            )
        self.leases = leases
        self.automation = Automation(self)
        self.writes = WritePath(self)
        self.sync = RoomSync(self)
        self.seating = Seating(self)
        self.connections = Connections(self)
        self.closing = False
        self._housekeeping: asyncio.Task[None] | None = None
        self.stats = ServiceStats()
        self.on_move: Callable[[float], None] | None = None
        """Metrics hook: called with the seconds a committed play took."""
        self.on_broker_kind: dict[str, Callable[[str, int], Awaitable[None]]] = {}
        """Handlers of broker message kinds beside the game's own (a shared review's
        change, a seat moved to another device: app/features.py registers them)."""

    @property
    def moves_committed(self) -> int:
        return self.stats.moves_committed

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Rooms are not loaded here: nothing moves in a room nobody is connected to, so
        each is rebuilt from its events when someone first opens it (a restart with
        thousands of stored rooms is as quick as one with none)."""
        await self.broker.start(self.sync.on_broker, self.sync.reconcile)
        self._housekeeping = asyncio.create_task(self.sync.housekeep())

    async def stop(self) -> None:
        """Graceful shutdown: wait for moves in flight, then ask clients to reconnect.

        Safe to call twice (the server calls it before closing sockets, and the
        app's lifespan again at the very end)."""
        if self.closing:
            return
        self.closing = True
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        for rt in self.rooms.values():
            self.automation.cancel_all(rt)
            if rt.recovery is not None:
                rt.recovery.cancel()
            async with rt.lock:  # a move in flight finishes first
                rt.hub.broadcast(wire.RECONNECT)
        await self.leases.release(list(self.rooms))
        self.bots.close()
        await self.broker.stop()

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the runtimes of rooms idle for ``idle_evict`` seconds; returns their ids.

        A long-running server would otherwise keep every room it ever served,
        finished ones included.  The state is rebuilt from the stored events the
        next time anyone asks for the room; a client that reconnects then gets
        a snapshot instead of the patches it missed.  Synchronous, so no other
        coroutine runs between the check and the removal.
        """
        now = time.monotonic() if now is None else now
        gone = [
            room_id
            for room_id, rt in self.rooms.items()
            if rt.is_idle(now, self.settings.idle_evict)
        ]
        for room_id in gone:
            rt = self.rooms.pop(room_id)
            rt.evicted = True
            if rt.recovery is not None:
                rt.recovery.cancel()
        if gone:
            log.info("rooms left memory", extra={"rooms": len(gone)})
        return gone

    async def runtime(self, room_id: str) -> RoomRuntime:
        rt = self.rooms.get(room_id)
        if rt is not None:
            return rt
        async with self._load_lock:
            rt = self.rooms.get(room_id)
            if rt is not None:
                return rt
            try:
                state = await self.repo.load_state(room_id)
            except Unavailable as exc:
                raise unavailable() from exc
            if state is None:
                raise ServiceError(ErrorCode.NOT_FOUND, "no such room")
            rt = RoomRuntime(state=state, hub=Hub(self.settings.history))
            self.rooms[room_id] = rt
            self.automation.schedule(rt)
            return rt

    # -------------------------------------------------------------- commands

    async def create_room(
        self,
        players: int,
        name: str,
        rules: RuleSet,
        bots: int,
        options: RoomOptions,
        creator: str | None = None,
    ) -> dict[str, Any]:
        """A new room with its maker in seat 0 (app/rooms/seating.py)."""
        return await self.seating.create_room(players, name, rules, bots, options, creator)

    async def join(self, room_id: str, name: str) -> dict[str, Any]:
        """Seat ``name`` in the first free seat (app/rooms/seating.py)."""
        return await self.seating.join(room_id, name)

    async def play(
        self,
        room_id: str,
        seat: int | None,
        client_id: str | None,
        card: str,
        take: list[str],
        *,
        server: str | None = None,
        at_seq: int | None = None,
    ) -> dict[str, Any]:
        """Validate and commit one play; returns {"seq", "duplicate"}.

        ``client_id`` is the player's id for the play, stored as ``{seat}:{id}``;
        ``server`` is instead the id of a move the server makes (``srv:...``),
        chosen for the position at ``at_seq`` and refused once the room is past it.
        The two kinds of id can never be equal, so a client cannot claim a server
        move's id.
        """
        started = time.perf_counter()
        rt = await self.runtime(room_id)
        if server is not None:
            key: str | None = server
        else:
            key = f"{seat}:{client_id}" if client_id is not None else None
        duplicate_seq: list[int] = []
        older: list[str] = []  # the id may be an old play's: the database says
        checked = False  # the database has no play with this id (a hash collision)
        used: list[RoomState] = []  # the state written to (a reload replaces rt.state)

        def make(st: RoomState) -> list[Spec]:
            used.append(st)
            if seat is None:
                raise ServiceError(ErrorCode.UNAUTHORIZED, "spectators cannot play")
            if key is not None:
                seq = st.played_ids.recent_seq(key)
                if seq is not None:
                    duplicate_seq.append(seq)
                    return []
                if not checked and st.played_ids.maybe_older(key):
                    older.append(key)
                    return []
            refuse_closed(st)  # ops
            if st.status != PLAYING or st.deal is None:
                if st.status == FINISHED:
                    raise ServiceError(ErrorCode.DEAL_OVER, "the match is over")
                raise ServiceError(ErrorCode.NOT_YOUR_TURN, "the game has not started")
            if st.deal.to_move != seat or (at_seq is not None and st.seq != at_seq):
                raise ServiceError(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
            if not st.deal.is_legal(card, take):
                # A legal move costs one lookup in the position's legal moves (which
                # playing it reuses); only a refusal runs the checks that name its error.
                try:
                    st.deal.check(card, take)
                except MoveError as exc:
                    raise ServiceError(exc.code, exc.message) from exc
                raise ServiceError(ErrorCode.BAD_MESSAGE, "not a legal move")
            return [Spec(PLAY, seat=seat, card=card, take=tuple(take), client_id=key)]

        await self.writes.write(rt, make)
        if older:  # a resend of a play too old to be remembered in full (played_ids.py)
            try:
                seq = await self.repo.play_seq(room_id, older[-1])
            except Unavailable as exc:
                raise unavailable() from exc
            if seq is not None:
                return {"seq": seq, "duplicate": True}
            checked = True
            await self.writes.write(rt, make)
        if duplicate_seq:
            return {"seq": duplicate_seq[-1], "duplicate": True}
        self.stats.moves_committed += 1
        if self.on_move is not None:
            self.on_move(time.perf_counter() - started)
        return {"seq": used[-1].seq, "duplicate": False}

    async def rematch(self, room_id: str, seat: int | None) -> None:
        rt = await self.runtime(room_id)

        def make(st: RoomState) -> list[Spec]:
            if seat is None:
                raise ServiceError(ErrorCode.UNAUTHORIZED, "spectators cannot start a rematch")
            refuse_closed(st)  # ops
            if st.status != FINISHED:
                raise ServiceError(ErrorCode.NOT_FINISHED, "the match is still being played")
            return [match_spec(st)]

        await self.writes.write(rt, make)

    async def set_autoplay(self, room_id: str, seat: int, on: bool) -> None:
        rt = await self.runtime(room_id)

        def make(st: RoomState) -> list[Spec]:
            s = st.seats[seat]
            if s.bot or s.autoplay == on or (on and st.status != PLAYING):
                return []
            return [Spec(AUTOPLAY, seat=seat, data={"on": on})]

        await self.writes.write(rt, make)

    # ---------------------------------------------------------------- reads

    async def seat_for_token(self, room_id: str, token: str) -> int | None:
        try:
            return await self.repo.seat_for_token(room_id, hash_token(token))
        except Unavailable as exc:
            raise unavailable() from exc

    async def summary(self, room_id: str) -> dict[str, Any]:
        rt = await self.runtime(room_id)
        async with rt.lock:  # never a state whose commit is still in flight
            await self.writes.ensure_fresh(rt)
            out = rt.state.summary()
        connected = await self.sync.connected(rt)
        for s in out["seats"]:
            s["connected"] = connected[s["seat"]]
        return out

    async def deal_record(self, room_id: str, deal_no: int) -> dict[str, Any]:
        rt = await self.runtime(room_id)
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

    async def retrying(self, command: Callable[[], Any]) -> None:
        """Run a command the room needs (not one a client waits for) until the database
        takes it."""
        delay = self.settings.retry_first
        while not self.closing:
            try:
                await command()
                return
            except ServiceError as exc:
                if exc.code not in RETRYABLE:
                    return
            except Exception:
                log.exception("background command failed; retrying")
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.settings.retry_max)

    @staticmethod
    async def safe(coro: Any) -> None:
        try:
            await coro
        except Exception:
            log.exception("background step failed")

    # ------------------------------------------------------------ operations
    # (closing a room, forgetting purged ones; the callers are in app/ops/ and
    # app/api/admin.py)

    async def close_room(self, room_id: str, reason: str) -> None:
        """End a room for everyone: a ``close`` event written like any other change, so
        every connection, on every process, gets the final state with ``closed`` set;
        seats, plays and rematches are refused from then on."""
        rt = await self.runtime(room_id)
        at = datetime.now(UTC).isoformat(timespec="seconds")

        def make(st: RoomState) -> list[Spec]:
            if st.closed is not None:
                raise ServiceError(ErrorCode.CLOSED, "the room is already closed")
            return [Spec(CLOSE, data={"reason": reason, "at": at})]

        await self.writes.write(rt, make)

    def forget_purged(self, purged: list[RoomPurged]) -> int:
        """Purged rooms leave memory too: their connections get
        the refusal as an ``error`` and are closed.  Synchronous, like ``evict_idle``.
        Returns how many rooms this process held."""
        held = 0
        for refusal in purged:
            rt = self.rooms.pop(refusal.room_id, None)
            if rt is None:
                continue
            held += 1
            rt.evicted = True
            self.automation.cancel_all(rt)
            error = wire.error_message(refusal.code, refusal.message)
            for sink in rt.hub.sinks():
                sink.send_text(error)
                sink.close(1000)
        return held
