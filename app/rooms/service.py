"""The room service: every change to a room goes through here.

Per room, one coroutine at a time (the room's lock) validates a command with
the engine, turns it into events, commits them (the room's seq moves from the
value it saw to the new one, or the write loses and the room is reloaded and
the command revalidated), and only then sends the prepared patches and tells
the other processes.  Bots, the turn clock and the grace period for absent
players are scheduled here too, after every change.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
import string
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

from app.broker import Broker
from app.db.repository import Conflict, RoomRepository, Written
from app.engine.errors import MoveError
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed

from .errors import RoomPurged, ServiceError  # ServiceError re-exported from here too
from .hub import Hub
from .records import deal_record
from .state import (
    AUTOPLAY, CLOSE, DEAL, FINISHED, MATCH, PLAY, PLAYING, SEAT, WAITING, RoomEvent, RoomOptions,
    RoomState,
)

log = logging.getLogger("krypkasino.rooms")

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "01OIL")
CODE_LENGTH = 6
WRITE_ATTEMPTS = 5


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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
class RoomRuntime:
    state: RoomState
    hub: Hub
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_task: asyncio.Task[None] | None = None
    turn_seq: int = -1
    grace_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    idle_since: float = field(default_factory=time.monotonic)
    """When the room last changed or a connection came or went."""
    evicted: bool = False
    """Dropped from memory (``RoomService.evict_idle``): whoever still holds this
    runtime must fetch the room again, which reloads it from the database."""

    def is_idle(self, now: float, after: float) -> bool:
        """Nothing would notice the room leaving memory: no connection, no move in
        flight or waiting for the lock, no bot, clock or grace timer running."""
        return (now - self.idle_since >= after
                and not self.lock.locked()
                and self.hub.connection_count() == 0
                and (self.turn_task is None or self.turn_task.done())
                and all(t.done() for t in self.grace_tasks.values()))


MoveChooser = Callable[[dict[str, Any], str], dict[str, Any]]


def random_chooser(view: dict[str, Any], level: str) -> dict[str, Any]:
    """Fallback bot: a uniformly random legal move."""
    return random.choice(view["legal"])


class RoomService:
    def __init__(self, repo: RoomRepository, broker: Broker, *, history: int = 256,
                 default_bot_delay: float = 0.8, default_grace: float = 60.0,
                 bot_budget: float = 0.5, idle_evict: float = 600.0,
                 chooser: Callable[[dict[str, Any], str], Any] | None = None) -> None:
        self.repo = repo
        self.broker = broker
        self.history = history
        self.default_bot_delay = default_bot_delay
        self.default_grace = default_grace
        self.idle_evict = idle_evict
        """Seconds a room stays in memory with nothing happening (its events stay stored)."""
        self.rooms: dict[str, RoomRuntime] = {}
        self._load_lock = asyncio.Lock()
        self.chooser = chooser or _default_chooser(bot_budget)
        self.closing = False
        self._heartbeat: asyncio.Task[None] | None = None
        self.moves_committed = 0
        self.on_move: Callable[[float], None] | None = None
        """Metrics hook: called with the seconds a committed play took."""

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        await self.broker.start(self._on_broker)
        self._heartbeat = asyncio.create_task(self._presence_heartbeat())
        for room_id in await self.repo.unfinished_room_ids():
            rt = await self.runtime(room_id)
            log.info("resumed room", extra={"room": room_id, "seq": rt.state.seq})

    async def stop(self) -> None:
        """Graceful shutdown: wait for moves in flight, then ask clients to reconnect.

        Safe to call twice (the server calls it before closing sockets, and the
        app's lifespan again at the very end)."""
        if self.closing:
            return
        self.closing = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for rt in self.rooms.values():
            self._cancel_turn(rt)
            for t in rt.grace_tasks.values():
                t.cancel()
            async with rt.lock:  # a move in flight finishes first
                rt.hub.broadcast('{"type":"reconnect"}')
        await self.broker.stop()

    async def _presence_heartbeat(self) -> None:
        """Keep this process's presence reports fresh for the other processes, and
        let rooms nobody uses leave memory."""
        while True:
            await asyncio.sleep(10)
            self.evict_idle()
            for rt in list(self.rooms.values()):
                if rt.hub.connection_count():
                    await self._safe(self.broker.set_presence(
                        rt.state.room_id, rt.hub.seat_counts(rt.state.players)))

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
                if rt.is_idle(now, self.idle_evict)]
        for room_id in gone:
            self.rooms.pop(room_id).evicted = True
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
            state = await self.repo.load_state(room_id)
            if state is None:
                raise ServiceError("not_found", "no such room", 404)
            rt = RoomRuntime(state=state, hub=Hub(self.history))
            self.rooms[room_id] = rt
            self._schedule(rt)
            return rt

    # -------------------------------------------------------------- commands

    async def create_room(self, players: int, name: str, rules: RuleSet, bots: int,
                          options: RoomOptions) -> dict[str, Any]:
        rules.validate_for(players)
        if not 0 <= bots <= players - 1:
            raise ServiceError("bad_request", f"bots must be 0..{players - 1}", 422)
        room_id = uuid.uuid4().hex
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not await self.repo.code_taken(code):
                break
        state = RoomState(room_id, code, players, rules, options)
        await self.repo.create_room(state)
        rt = RoomRuntime(state=state, hub=Hub(self.history))
        self.rooms[room_id] = rt
        token = new_token()
        specs = [Spec(SEAT, seat=0, data={"name": name}, token_hash=hash_token(token))]
        for i in range(bots):
            specs.append(Spec(SEAT, seat=players - bots + i,
                              data={"name": f"Bot {i + 1}", "bot": True}))
        await self._write(rt, lambda st: specs)
        return {"room_id": room_id, "code": code, "seat": 0, "token": token}

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
                   take: list[str]) -> dict[str, Any]:
        """Validate and commit one play; returns {"seq", "duplicate"}."""
        started = time.perf_counter()
        rt = await self.runtime(room_id)
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
            if st.deal.to_move != seat:
                raise ServiceError("not_your_turn", "it is not your turn", 409)
            try:
                st.deal.check(card, take)
            except MoveError as exc:
                raise ServiceError(exc.code, exc.message, 409) from exc
            return [Spec(PLAY, seat=seat, card=card, take=tuple(take), client_id=key)]

        await self._write(rt, make)
        if duplicate_seq:
            return {"seq": duplicate_seq[0], "duplicate": True}
        self.moves_committed += 1
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
        return await self.repo.seat_for_token(room_id, hash_token(token))

    async def summary(self, room_id: str) -> dict[str, Any]:
        rt = await self.runtime(room_id)
        out = rt.state.summary()
        connected = await self.connected(rt)
        for s in out["seats"]:
            s["connected"] = connected[s["seat"]]
        return out

    async def deal_record(self, room_id: str, deal_no: int) -> dict[str, Any]:
        rt = await self.runtime(room_id)
        stored = await self.repo.deal_record(room_id, rt.state.match_no, deal_no)
        if stored is None:
            raise ServiceError("not_found", f"deal {deal_no} is not over (or does not exist)", 404)
        return deal_record(stored)

    async def room_id_for_code(self, code: str) -> str:
        room_id = await self.repo.room_id_for_code(code.upper())
        if room_id is None:
            raise ServiceError("not_found", "no room with that code", 404)
        return room_id

    # ------------------------------------------------------------ connections

    async def connect(self, room_id: str, seat: int | None, sink: Any,
                      last_seq: int | None) -> list[str]:
        """Attach a connection; returns the messages that bring it up to date."""
        while True:
            rt = await self.runtime(room_id)
            await self.catch_up(room_id)  # another process may have moved the room on
            async with rt.lock:
                if not rt.evicted:
                    rt.idle_since = time.monotonic()
                    msgs = self._attach(rt, seat, sink, last_seq)
                    break
        await self._safe(self._presence_changed(rt))
        if seat is not None and rt.state.seats[seat].autoplay:
            asyncio.create_task(self._safe(self.set_autoplay(room_id, seat, False)))
        return msgs

    def _attach(self, rt: RoomRuntime, seat: int | None, sink: Any,
                last_seq: int | None) -> list[str]:
        """Under the room's lock: register the connection and stop its seat's grace timer."""
        welcome = '{"type":"welcome","you":%s,"seq":%d}' % (
            "null" if seat is None else seat, rt.state.seq)
        msgs = [welcome] + rt.hub.attach(seat, sink, self._public_fn(rt),
                                         rt.state.private_view, rt.state.seq, last_seq)
        task = rt.grace_tasks.pop(seat, None) if seat is not None else None
        if task is not None:
            task.cancel()
        return msgs

    async def disconnect(self, room_id: str, seat: int | None, sink: Any) -> None:
        rt = self.rooms.get(room_id)
        if rt is None:
            return
        async with rt.lock:
            last = rt.hub.detach(seat, sink)
            rt.idle_since = time.monotonic()
        await self._safe(self._presence_changed(rt))
        if last:
            self._schedule(rt)  # starts the grace period of a seat left alone

    async def connected(self, rt: RoomRuntime) -> list[bool]:
        """Who is online by seat, over every server process (bots always are)."""
        n = rt.state.players
        local = rt.hub.seat_counts(n)
        remote = await self.broker.remote_presence(rt.state.room_id, n)
        return [a + b > 0 or s.bot for a, b, s in zip(local, remote, rt.state.seats)]

    async def _presence_changed(self, rt: RoomRuntime) -> None:
        """Tell this process's connections and the other processes who is online."""
        room_id = rt.state.room_id
        await self.broker.set_presence(room_id, rt.hub.seat_counts(rt.state.players))
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
                    return await self._write_locked(rt, make)
            rt = await self.runtime(rt.state.room_id)  # it left memory meanwhile: reload

    async def _write_locked(self, rt: RoomRuntime,
                            make: Callable[[RoomState], list[Spec]]) -> list[Spec]:
        room_id = rt.state.room_id
        for attempt in range(WRITE_ATTEMPTS):
            st = rt.state
            expected = st.seq
            specs = make(st)  # raises ServiceError: nothing changed
            if not specs:
                return specs
            written: list[Written] = []
            pending: list[tuple[int, str]] = []
            try:
                queue = list(specs)
                while queue:
                    spec = queue.pop(0)
                    ev = RoomEvent(seq=st.seq + 1, kind=spec.kind, seat=spec.seat,
                                   card=spec.card, take=spec.take, client_id=spec.client_id,
                                   data=spec.data)
                    st.apply(ev)
                    w = Written(ev, token_hash=spec.token_hash)
                    if st.finished_deal is not None and st.match is not None:
                        w.finished_deal = st.finished_deal
                        w.match_totals = {
                            "match_no": st.match_no, "cumulative": st.match.cumulative,
                            "deals_played": st.match.deals_played,
                            "finished": st.match.is_over, "winners": st.match.winners()}
                    written.append(w)
                    self._update_clock(rt)
                    pending.extend(rt.hub.prepare(st.seq, self._public_fn(rt),
                                                  st.private_view))
                    if not queue:
                        follow = _followup(st)
                        if follow is not None:
                            queue.append(follow)
                await self.repo.commit_events(room_id, expected, st.status, written)
            except Conflict:
                log.info("write conflict; reloading", extra={"room": room_id})
                await self._reload(rt)
                continue
            except BaseException:
                await self._reload(rt)
                raise
            rt.hub.flush(pending)
            await self._safe(self.broker.publish(room_id, st.seq))
            self._schedule(rt)
            return specs
        raise ServiceError("busy", "the room is busy; try again", 503)

    def _public_fn(self, rt: RoomRuntime) -> Callable[[], dict[str, Any]]:
        def public() -> dict[str, Any]:
            v = dict(rt.state.public_view())
            v["clock"] = rt.clock
            return v
        return public

    async def _reload(self, rt: RoomRuntime) -> None:
        state = await self.repo.load_state(rt.state.room_id)
        if state is not None:
            rt.state = state
        rt.hub.invalidate()

    async def catch_up(self, room_id: str) -> None:
        """Another process committed events: apply them and send the patches."""
        rt = self.rooms.get(room_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.evicted:
                return  # the next user of the room loads it from the database
            events = await self.repo.events_after(room_id, rt.state.seq)
            pending: list[tuple[int, str]] = []
            try:
                for ev in events:
                    rt.state.apply(ev)
                    self._update_clock(rt)
                    pending.extend(rt.hub.prepare(ev.seq, self._public_fn(rt),
                                                  rt.state.private_view))
            except Exception:
                log.exception("catch-up failed; reloading", extra={"room": room_id})
                await self._reload(rt)
                pending = rt.hub.prepare(rt.state.seq, self._public_fn(rt),
                                         rt.state.private_view)
            rt.hub.flush(pending)
        self._schedule(rt)

    async def _on_broker(self, room_id: str, seq: int, kind: str) -> None:
        rt = self.rooms.get(room_id)
        if rt is None:
            return
        if seq > rt.state.seq:
            await self.catch_up(room_id)
        if kind == "presence":
            await self._broadcast_presence(rt)

    # ------------------------------------------------------------- automation

    def _update_clock(self, rt: RoomRuntime) -> None:
        st = rt.state
        seat = st.to_move
        if st.options.turn_clock and seat is not None and not st.bot_controls(seat):
            rt.clock = {"seat": seat,
                        "deadline": int((time.time() + st.options.turn_clock) * 1000)}
        else:
            rt.clock = None

    def _cancel_turn(self, rt: RoomRuntime) -> None:
        task = rt.turn_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        rt.turn_task = None

    def _schedule(self, rt: RoomRuntime) -> None:
        """After a change: start grace timers for absent players; let a bot play, or
        start the turn clock."""
        st = rt.state
        if self.closing:
            return
        if st.status == PLAYING:
            connected = rt.hub.connected_seats(st.players)
            for seat, s in enumerate(st.seats):
                if (not s.bot and not s.autoplay and not connected[seat]
                        and seat not in rt.grace_tasks):
                    rt.grace_tasks[seat] = asyncio.create_task(self._grace(rt, seat))
        if rt.turn_seq == st.seq and rt.turn_task is not None:
            return
        self._cancel_turn(rt)
        rt.turn_seq = st.seq
        seat = st.to_move
        if seat is None:
            return
        if st.bot_controls(seat):
            rt.turn_task = asyncio.create_task(
                self._bot_turn(rt, st.seq, seat, st.options.bot_delay, "bot"))
        elif st.options.turn_clock:
            rt.turn_task = asyncio.create_task(
                self._bot_turn(rt, st.seq, seat, st.options.turn_clock, "clock"))

    async def _bot_turn(self, rt: RoomRuntime, seq: int, seat: int, delay: float,
                        prefix: str) -> None:
        """Play one move for ``seat`` after ``delay`` if the room has not moved on."""
        try:
            await asyncio.sleep(delay)
            st = rt.state
            if st.seq != seq or st.to_move != seat:
                return
            view = st.view(seat)
            if not view["legal"]:
                return
            level = st.options.bot_level if st.seats[seat].bot else "greedy"
            move = await self.chooser(view, level)
            if rt.state.seq != seq:
                return
            await self.play(st.room_id, seat, f"{prefix}:{seq}", move["card"],
                            list(move["take"]))
        except asyncio.CancelledError:
            raise
        except ServiceError as exc:
            log.info("bot move refused", extra={"room": rt.state.room_id, "code": exc.code})
        except Exception:
            log.exception("bot move failed", extra={"room": rt.state.room_id})

    async def _grace(self, rt: RoomRuntime, seat: int) -> None:
        """A player left: after the grace period a bot plays for them (autoplay)."""
        try:
            await asyncio.sleep(rt.state.options.grace)
            rt.grace_tasks.pop(seat, None)
            if (await self.connected(rt))[seat]:
                return  # here, or connected to another server process
            await self.set_autoplay(rt.state.room_id, seat, True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("grace take-over failed", extra={"room": rt.state.room_id})

    @staticmethod
    async def _safe(coro: Any) -> None:
        try:
            await coro
        except Exception:
            log.exception("background step failed")

    # ------------------------------------------------------------ operations
    # (ops branch: closing a room, forgetting purged ones; the callers are in app/ops/
    # and app/api/admin.py)

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
            self._cancel_turn(rt)
            for task in rt.grace_tasks.values():
                task.cancel()
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


def _default_chooser(budget: float = 0.5) -> Callable[[dict[str, Any], str], Any]:
    """Bots run off the event loop: random and greedy in a worker thread (they take
    milliseconds), the strong search in a worker process, so that its CPU time
    never competes with the event loop for the interpreter lock."""
    try:
        from app.bots import choose_move
    except ImportError:  # the bots package is optional: play random legal moves
        choose_move = None
    pool: list[Any] = []

    async def choose(view: dict[str, Any], level: str) -> dict[str, Any]:
        if choose_move is None:
            return random_chooser(view, level)
        if level != "strong":
            return await asyncio.to_thread(choose_move, view, level)
        if not pool:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            pool.append(ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool[0], _choose_strong, view, budget)

    return choose


def _choose_strong(view: dict[str, Any], budget: float) -> dict[str, Any]:
    from app.bots import choose_move

    return choose_move(view, "strong", budget_s=budget)
