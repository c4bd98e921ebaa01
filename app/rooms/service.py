"""The room service: every change to a room goes through here.

Per room, one coroutine at a time (the room's lock) validates a command with
the engine, turns it into events, commits them (the room's seq moves from the
value it saw to the new one, or the write loses and the room is reloaded and
the command revalidated), and only then sends the prepared patches and tells
the other processes.  Nothing is acknowledged before it is committed, and the
state in memory never runs ahead of the database: a write that fails leaves
the room *stale* (reloaded before anyone reads it again), and its caller gets
an ``unavailable`` error to retry with the same id.  Timers (bots, the clock,
grace) live in ``automation``; catching up with other processes is here.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import string
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from app.broker import Broker
from app.engine.errors import MoveError
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed

from .automation import Automation
from .botrunner import BotRunner, Chooser
from .errors import RETRYABLE, RoomPurged, ServiceError, unavailable
from .hub import Hub, Pending
from .leases import Leases, LocalLeases, StoreLeases, now_ms
from .records import deal_record
from .runtime import RoomRuntime
from .settings import ServiceSettings
from .state import (
    AUTOPLAY, CLOSE, DEAL, FINISHED, MATCH, PLAY, PLAYING, SEAT, WAITING, RoomEvent, RoomOptions,
    RoomState,
)
from .store import Conflict, RoomStore, Unavailable, Written

__all__ = ["RoomService", "ServiceError", "ServiceSettings"]

log = logging.getLogger("krypkasino.rooms")

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "01OIL")
CODE_LENGTH = 6
WRITE_ATTEMPTS = 5


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def creator_key(address: str) -> str:
    """What is stored of the address a room was made from: enough to count its rooms."""
    return hashlib.sha256(b"krypkasino-room-creator:" + address.encode()).hexdigest()[:32]


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


@dataclass(slots=True)
class Spec:
    """An event to write, before it has its seq."""

    kind: str
    seat: int | None = None
    card: str | None = None
    take: tuple[str, ...] = ()
    client_id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    token_hash: str | None = None


@dataclass(slots=True)
class ServiceStats:
    """Counters the metrics endpoint reads (kept here, free of any metrics library)."""

    moves_committed: int = 0
    conflicts: int = 0
    """Writes that lost the race to another process and were revalidated."""
    write_failures: int = 0
    """Writes the database did not take (unavailable): answered with an error, not lost."""
    recoveries: int = 0
    """Rooms reloaded after a failed write."""
    timer_moves: dict[str, int] = field(default_factory=dict)
    """Moves made by this process's timers, by kind (bot, clock, grace)."""


class RoomService:
    def __init__(self, repo: RoomStore, broker: Broker,
                 settings: ServiceSettings | None = None, *,
                 chooser: Chooser | None = None, leases: Leases | None = None) -> None:
        self.repo = repo
        self.broker = broker
        self.settings = settings or ServiceSettings()
        self.rooms: dict[str, RoomRuntime] = {}
        self._load_lock = asyncio.Lock()
        self.bots = BotRunner(self.settings.bot_budget)
        self.chooser: Chooser = chooser or self.bots
        if leases is None:
            leases = (StoreLeases(repo, broker.origin, self.settings.lease_seconds)
                      if getattr(broker, "shared", False) else LocalLeases())
        self.leases = leases
        self.automation = Automation(self)
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
        await self.broker.start(self._on_broker, self.reconcile)
        self._housekeeping = asyncio.create_task(self._housekeep())

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
                rt.hub.broadcast('{"type":"reconnect"}')
        await self.leases.release(list(self.rooms))
        self.bots.close()
        await self.broker.stop()

    async def _housekeep(self) -> None:
        """Every heartbeat: renew timer leases, let rooms nobody uses leave memory,
        catch up rooms other processes moved (a safety net under the broker, whose
        messages are at most once), and refresh this process's presence reports."""
        while True:
            await asyncio.sleep(self.settings.heartbeat)
            try:
                await self.leases.renew()
                gone = self.evict_idle()
                if gone:
                    await self.leases.release(gone)
                if getattr(self.broker, "shared", False):
                    await self.reconcile()
                for rt in list(self.rooms.values()):
                    if rt.hub.connection_count():
                        await self.broker.set_presence(
                            rt.state.room_id, rt.hub.presence_counts(rt.state.players))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis or the database away: next round
                log.info("housekeeping incomplete", extra={"error": type(exc).__name__})

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the runtimes of rooms idle for ``idle_evict`` seconds; returns their ids.

        A long-running server would otherwise keep every room it ever served,
        finished ones included.  The state is rebuilt from the stored events the
        next time anyone asks for the room; a client that reconnects then gets
        a snapshot instead of the patches it missed.  Synchronous, so no other
        coroutine runs between the check and the removal.
        """
        now = time.monotonic() if now is None else now
        gone = [room_id for room_id, rt in self.rooms.items()
                if rt.is_idle(now, self.settings.idle_evict)]
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
                raise ServiceError("not_found", "no such room", 404)
            rt = RoomRuntime(state=state, hub=Hub(self.settings.history))
            self.rooms[room_id] = rt
            self.automation.schedule(rt)
            return rt

    # -------------------------------------------------------------- commands

    async def create_room(self, players: int, name: str, rules: RuleSet, bots: int,
                          options: RoomOptions, creator: str | None = None) -> dict[str, Any]:
        """A new room with its maker in seat 0; ``creator`` is the address it came from
        (its live rooms are capped)."""
        rules.validate_for(players)
        if not 0 <= bots <= players - 1:
            raise ServiceError("bad_request", f"bots must be 0..{players - 1}", 422)
        made_by = creator_key(creator) if creator is not None else None
        await self._check_room_caps(made_by)
        token = new_token()
        specs = [Spec(SEAT, seat=0, data={"name": name}, token_hash=hash_token(token))]
        for i in range(bots):
            specs.append(Spec(SEAT, seat=players - bots + i,
                              data={"name": f"Bot {i + 1}", "bot": True}))
        for _ in range(5):  # a new code, should another room have taken this one meanwhile
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            state = RoomState(uuid.uuid4().hex, code, players, rules, options)
            rt = RoomRuntime(state=state, hub=Hub(self.settings.history))
            written, _ = self._apply(rt, list(specs), now_ms())
            try:
                await self.repo.create_room(state, written, made_by)
            except Conflict:
                continue
            except Unavailable as exc:
                raise unavailable() from exc
            self.rooms[state.room_id] = rt
            await self._safe(self.broker.publish(state.room_id, state.seq))
            self.automation.schedule(rt)
            return {"room_id": state.room_id, "code": code, "seat": 0, "token": token}
        raise ServiceError("busy", "could not find a free room code; try again", 503)

    async def _check_room_caps(self, made_by: str | None) -> None:
        per_creator, most = self.settings.max_rooms_per_creator, self.settings.max_rooms
        if not per_creator and not most:
            return
        try:
            mine, total = await self.repo.live_rooms(made_by)
        except Unavailable as exc:
            raise unavailable() from exc
        if most and total >= most:
            raise ServiceError("too_many_rooms", "the server holds as many games as it can; "
                               "try again later", 503)
        if per_creator and made_by is not None and mine >= per_creator:
            raise ServiceError("too_many_rooms", f"your address has {mine} rooms waiting or "
                               f"in play, the most it may; finish or leave one first", 429)

    async def join(self, room_id: str, name: str) -> dict[str, Any]:
        rt = await self.runtime(room_id)
        token = new_token()

        def make(st: RoomState) -> list[Spec]:
            _refuse_closed(st)  # ops
            seat = st.free_seat()
            if seat is None:
                raise ServiceError("room_full", "every seat is taken", 409)
            return [Spec(SEAT, seat=seat, data={"name": name}, token_hash=hash_token(token))]

        specs = await self._write(rt, make)
        return {"seat": specs[0].seat, "token": token}

    async def play(self, room_id: str, seat: int | None, client_id: str | None, card: str,
                   take: list[str], *, server: str | None = None,
                   at_seq: int | None = None) -> dict[str, Any]:
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
        used: list[RoomState] = []  # the state written to (a reload replaces rt.state)

        def make(st: RoomState) -> list[Spec]:
            used.append(st)
            if seat is None:
                raise ServiceError("unauthorized", "spectators cannot play", 403)
            if key is not None and key in st.client_ids:
                duplicate_seq.append(st.client_ids[key])
                return []
            _refuse_closed(st)  # ops
            if st.status != PLAYING or st.deal is None:
                if st.status == FINISHED:
                    raise ServiceError("deal_over", "the match is over", 409)
                raise ServiceError("not_your_turn", "the game has not started", 409)
            if st.deal.to_move != seat or (at_seq is not None and st.seq != at_seq):
                raise ServiceError("not_your_turn", "it is not your turn", 409)
            try:
                st.deal.check(card, take)
            except MoveError as exc:
                raise ServiceError(exc.code, exc.message, 409) from exc
            return [Spec(PLAY, seat=seat, card=card, take=tuple(take), client_id=key)]

        await self._write(rt, make)
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
                raise ServiceError("unauthorized", "spectators cannot start a rematch", 403)
            _refuse_closed(st)  # ops
            if st.status != FINISHED:
                raise ServiceError("not_finished", "the match is still being played", 409)
            return [_match_spec(st)]

        await self._write(rt, make)

    async def set_autoplay(self, room_id: str, seat: int, on: bool) -> None:
        rt = await self.runtime(room_id)

        def make(st: RoomState) -> list[Spec]:
            s = st.seats[seat]
            if s.bot or s.autoplay == on or (on and st.status != PLAYING):
                return []
            return [Spec(AUTOPLAY, seat=seat, data={"on": on})]

        await self._write(rt, make)

    # ---------------------------------------------------------------- reads

    async def seat_for_token(self, room_id: str, token: str) -> int | None:
        try:
            return await self.repo.seat_for_token(room_id, hash_token(token))
        except Unavailable as exc:
            raise unavailable() from exc

    async def summary(self, room_id: str) -> dict[str, Any]:
        rt = await self.runtime(room_id)
        async with rt.lock:  # never a state whose commit is still in flight
            await self._ensure_fresh(rt)
            out = rt.state.summary()
        connected = await self.connected(rt)
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
            raise ServiceError("not_found", f"deal {deal_no} is not over (or does not exist)", 404)
        return deal_record(stored)

    async def room_id_for_code(self, code: str) -> str:
        try:
            room_id = await self.repo.room_id_for_code(code.upper())
        except Unavailable as exc:
            raise unavailable() from exc
        if room_id is None:
            raise ServiceError("not_found", "no room with that code", 404)
        return room_id

    # ------------------------------------------------------------ connections

    async def connect(self, room_id: str, seat: int | None, sink: Any,
                      last_seq: int | None) -> None:
        """Attach a connection and send it, before anything else can reach it, the
        welcome and what brings it up to date (patches after ``last_seq`` or a
        snapshot)."""
        while True:
            rt = await self.runtime(room_id)
            await self.catch_up(room_id)  # another process may have moved the room on
            async with rt.lock:
                if rt.evicted:
                    continue
                await self._ensure_fresh(rt)
                rt.idle_since = time.monotonic()
                self._attach(rt, seat, sink, last_seq)
                break
        await self._safe(self._presence_changed(rt))
        self.automation.schedule(rt)  # a room nobody was in goes on
        if seat is not None and rt.state.seats[seat].autoplay:
            asyncio.create_task(self._retrying(lambda: self.set_autoplay(room_id, seat, False)))

    def _attach(self, rt: RoomRuntime, seat: int | None, sink: Any,
                last_seq: int | None) -> None:
        """Under the room's lock: register the connection and stop its seat's grace timer."""
        st = rt.state
        sink.send_text('{"type":"welcome","you":%s,"seq":%d}' % (
            "null" if seat is None else seat, st.seq))
        rt.hub.attach(seat, sink, st.public_view, st.private_view, st.seq, last_seq)
        task = rt.grace_tasks.pop(seat, None) if seat is not None else None
        if task is not None:
            task.cancel()

    async def disconnect(self, room_id: str, seat: int | None, sink: Any) -> None:
        rt = self.rooms.get(room_id)
        if rt is None:
            return
        async with rt.lock:
            last = rt.hub.detach(seat, sink)
            rt.idle_since = time.monotonic()
        await self._safe(self._presence_changed(rt))
        if last:
            self.automation.schedule(rt)  # starts the grace period of a seat left alone

    async def connected(self, rt: RoomRuntime) -> list[bool]:
        """Who is online by seat, over every server process (bots always are); only
        this process's connections count while Redis is away."""
        n = rt.state.players
        local = rt.hub.seat_counts(n)
        try:
            remote = await self.broker.remote_presence(rt.state.room_id, n)
        except Exception:
            remote = [0] * n
        return [a + b > 0 or s.bot for a, b, s in zip(local, remote, rt.state.seats)]

    async def _presence_changed(self, rt: RoomRuntime) -> None:
        """Tell this process's connections and the other processes who is online."""
        room_id = rt.state.room_id
        try:
            await self.broker.set_presence(room_id, rt.hub.presence_counts(rt.state.players))
        except Exception:
            pass  # refreshed by housekeeping once Redis is back
        await self.broker.publish(room_id, rt.state.seq, "presence")
        await self._broadcast_presence(rt)

    async def _broadcast_presence(self, rt: RoomRuntime) -> None:
        connected = await self.connected(rt)
        rt.hub.broadcast(json.dumps({"type": "presence", "connected": connected}))

    # ------------------------------------------------------------------ write

    async def _write(self, rt: RoomRuntime, make: Callable[[RoomState], list[Spec]]) -> list[Spec]:
        """Validate (``make``), apply, commit, then send; retried when another writer won."""
        while True:
            async with rt.lock:
                if not rt.evicted:
                    rt.idle_since = time.monotonic()
                    await self._ensure_fresh(rt)
                    return await self._write_locked(rt, make)
            rt = await self.runtime(rt.state.room_id)  # it left memory meanwhile: reload

    async def _write_locked(self, rt: RoomRuntime,
                            make: Callable[[RoomState], list[Spec]]) -> list[Spec]:
        room_id = rt.state.room_id
        for _ in range(WRITE_ATTEMPTS):
            st = rt.state
            expected = st.seq
            specs = make(st)  # raises ServiceError: nothing changed
            if not specs:
                return specs
            try:
                written, pending = self._apply(rt, list(specs), now_ms())
                await self.repo.commit_events(room_id, expected, st.status, written)
            except Conflict:
                self.stats.conflicts += 1
                log.info("write conflict; reloading", extra={"room": room_id})
                self._mark_stale(rt, recover=False)
                await self._ensure_fresh(rt)
                continue
            except BaseException as exc:
                # The events are applied in memory but not known to be stored.
                self._mark_stale(rt)
                if isinstance(exc, Unavailable):
                    self.stats.write_failures += 1
                    log.warning("write failed: database unavailable",
                                extra={"room": room_id, "error": str(exc)[:200]})
                    raise unavailable() from exc
                if isinstance(exc, Exception):
                    self.stats.write_failures += 1
                    log.exception("write failed", extra={"room": room_id})
                    raise ServiceError("internal", "the change could not be stored; nothing "
                                       "changed", 500) from exc
                raise  # cancelled: the room reloads before anyone reads it
            rt.hub.flush(pending, st.public_view, st.private_view)
            await self._safe(self.broker.publish(room_id, st.seq))
            self.automation.schedule(rt)
            return specs
        raise ServiceError("busy", "the room is busy; try again", 503)

    def _apply(self, rt: RoomRuntime, queue: list[Spec], at: int
               ) -> tuple[list[Written], Pending]:
        """Apply the commands' events (and those that follow on their own) to the room's
        state, preparing each one's patches; returns what to store and what to send."""
        st = rt.state
        written: list[Written] = []
        pending: Pending = []
        while queue:
            spec = queue.pop(0)
            ev = RoomEvent(seq=st.seq + 1, kind=spec.kind, seat=spec.seat, card=spec.card,
                           take=spec.take, client_id=spec.client_id, data=spec.data, at=at)
            st.apply(ev)
            w = Written(ev, token_hash=spec.token_hash)
            if st.finished_deal is not None and st.match is not None:
                w.finished_deal = st.finished_deal
                w.match_totals = {
                    "match_no": st.match_no, "cumulative": st.match.cumulative,
                    "deals_played": st.match.deals_played,
                    "finished": st.match.is_over, "winners": st.match.winners()}
            written.append(w)
            pending.extend(rt.hub.prepare(st.seq, st.public_view, st.private_view))
            if not queue:
                follow = _followup(st)
                if follow is not None:
                    queue.append(follow)
        return written, pending

    # --------------------------------------------------------- staying in step

    def _mark_stale(self, rt: RoomRuntime, recover: bool = True) -> None:
        """The room's memory may be ahead of the database: stop using it until reloaded."""
        rt.stale = True
        rt.hub.invalidate()
        if recover and (rt.recovery is None or rt.recovery.done()) and not self.closing:
            rt.recovery = asyncio.create_task(self._recover(rt))

    async def _ensure_fresh(self, rt: RoomRuntime) -> None:
        """Under the room's lock: reload a stale room, or refuse with ``unavailable``."""
        if not rt.stale:
            return
        try:
            await self._reload(rt)
        except Unavailable as exc:
            if rt.recovery is None or rt.recovery.done():
                rt.recovery = asyncio.create_task(self._recover(rt))
            raise unavailable() from exc

    async def _reload(self, rt: RoomRuntime) -> None:
        """Under the room's lock: replace the state with the stored one and bring every
        connection to it; timers start again from the reloaded state."""
        state = await self.repo.load_state(rt.state.room_id)
        if state is None:
            raise ServiceError("not_found", "the room no longer exists", 404)
        rt.state = state
        rt.stale = False
        self.stats.recoveries += 1
        rt.hub.reset(state.seq, state.public_view, state.private_view)
        rt.hub.sync(state.seq, state.public_view, state.private_view)
        self.automation.cancel_turn(rt)
        self.automation.schedule(rt)

    async def _recover(self, rt: RoomRuntime) -> None:
        """Reload a stale room as soon as the database answers, so that play resumes
        (clients get the stored state, timers fire again) without anyone asking."""
        delay = self.settings.retry_first
        while rt.stale and not rt.evicted and not self.closing:
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.settings.retry_max)
            async with rt.lock:
                if not rt.stale or rt.evicted:
                    return
                try:
                    await self._reload(rt)
                except Unavailable:
                    continue
                except Exception:
                    log.exception("reload failed", extra={"room": rt.state.room_id})
                    continue
            log.warning("room back in step with the database",
                        extra={"room": rt.state.room_id, "seq": rt.state.seq})

    async def catch_up(self, room_id: str) -> None:
        """Another process may have committed events: apply them and bring every
        connection up to date.  Best effort: without the database it does nothing."""
        rt = self.rooms.get(room_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.evicted:
                return
            try:
                if rt.stale:
                    await self._reload(rt)
                    return
                events = await self.repo.events_after(room_id, rt.state.seq)
            except (Unavailable, ServiceError):
                return
            st = rt.state
            pending: Pending = []
            try:
                for ev in events:
                    st.apply(ev)
                    pending.extend(rt.hub.prepare(ev.seq, st.public_view, st.private_view))
            except Exception:
                log.exception("catch-up failed; reloading", extra={"room": room_id})
                self._mark_stale(rt)
                return
            rt.hub.flush(pending, st.public_view, st.private_view)
            rt.hub.sync(st.seq, st.public_view, st.private_view)
        self.automation.schedule(rt)

    async def reconcile(self) -> None:
        """Catch up every room held here that the database shows further along (after
        Redis came back, and every heartbeat while processes share rooms)."""
        ids = list(self.rooms)
        try:
            stored = await self.repo.room_seqs(ids)
        except Unavailable:
            return
        for room_id in ids:
            rt = self.rooms.get(room_id)
            if rt is not None and (rt.stale or stored.get(room_id, -1) > rt.state.seq):
                await self.catch_up(room_id)

    async def _on_broker(self, room_id: str, seq: int, kind: str) -> None:
        extra = self.on_broker_kind.get(kind)
        if extra is not None:
            await extra(room_id, seq)
            return
        rt = self.rooms.get(room_id)
        if rt is None:
            return
        if seq > rt.state.seq or rt.stale:
            await self.catch_up(room_id)
        if kind == "presence":
            await self._broadcast_presence(rt)

    # ---------------------------------------------------------------- helpers

    async def _retrying(self, command: Callable[[], Any]) -> None:
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
    async def _safe(coro: Any) -> None:
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
        at = datetime.now(timezone.utc).isoformat(timespec="seconds")

        def make(st: RoomState) -> list[Spec]:
            if st.closed is not None:
                raise ServiceError("closed", "the room is already closed", 409)
            return [Spec(CLOSE, data={"reason": reason, "at": at})]

        await self._write(rt, make)

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
            error = json.dumps({"type": "error", "id": None, "code": refusal.code,
                                "message": refusal.message})
            for sink in rt.hub.sinks():
                sink.send_text(error)
                sink.close(1000)
        return held


def _refuse_closed(st: RoomState) -> None:
    """A closed room takes no more seats, plays or rematches (ops: RoomService.close_room)."""
    if st.closed is not None:
        reason = st.closed.get("reason") or "no reason given"
        raise ServiceError("closed", f"this room was closed ({reason})", 409)


def _match_spec(st: RoomState) -> Spec:
    return Spec(MATCH, data={"match_no": st.match_no + 1,
                             "first_dealer": secrets.randbelow(st.players),  # R2.1
                             "players": st.players})


def _followup(st: RoomState) -> Spec | None:
    """The event the room needs next on its own: a match when all are seated, a deal."""
    if st.status == WAITING and st.all_seated:
        return _match_spec(st)
    if st.needs_next_deal():
        assert st.match is not None
        deal_no = st.deal_no + 1
        return Spec(DEAL, data={"seed": new_seed(), "match_no": st.match_no, "deal_no": deal_no,
                                "dealer": st.match.dealer_for(deal_no),
                                "copies": st.rules.copies, "players": st.players})
    return None
