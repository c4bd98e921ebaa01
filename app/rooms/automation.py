"""Moves the server makes by itself: bot turns, the turn clock, grace take-overs.

After every change the service calls ``schedule``: a bot to move gets a turn
task due ``bot_delay`` after the latest event, a person to move under a turn
clock gets one due at the clock's deadline, and every absent player gets a
grace timer.  The due times count from the stored time of the latest event,
so they are the same in every process and after a restart.

Timers run only while someone (a player or a spectator) is connected to the
room, on any process: a game everyone has left pauses, and goes on when
someone comes back; a match of bots alone (every seat played by a bot) runs
only while watched, and no faster than ``bots_only_delay`` a move.  Each timer
runs only while this process holds the room's lease (exactly one process runs
a room's timers), and survives failures: a write refused because
the database is away, a reload, a bot that crashed, are all retried with
backoff until the move is made or the room has moved on.  Server moves carry
ids of the form ``srv:{kind}:{seq}``, a space no client id can reach (those
are stored as ``{seat}:{id}``): a client cannot pre-empt or block them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from app.broker import BrokerUnavailable
from app.core.clock import now_ms
from app.core.errors import RETRYABLE, ServiceError
from app.engine.moves import LegalMove

from .attendance import timers_may_run
from .commands.context import Context
from .commands.match import set_autoplay
from .commands.play import play
from .domain.commands import PlayCard, SetAutoplay
from .domain.events import STANDIN_MOVE
from .domain.state import PLAYING
from .pacing import next_deal_timer
from .rematch_expiry import rematch_expiry
from .runtime import RoomRuntime
from .timer_loop import run_when_due

log = logging.getLogger("krypkasino.rooms")


async def _think_until(thinking: Awaitable[LegalMove], due_ms: int) -> LegalMove:
    """The bot's move, not before ``due_ms``: it thinks during the delay people are given
    to follow the game, so a strong bot's budget costs the table nothing extra."""
    move = asyncio.ensure_future(thinking)
    try:
        # A loop: the event loop's timer may wake a millisecond before the wall clock
        # (which stamps the move) reaches due_ms; a bot must never play before it.
        while (wait := (due_ms - now_ms()) / 1000) > 0:
            await asyncio.sleep(wait)
        return await move
    finally:
        if not move.done():
            move.cancel()


def server_key(kind: str, seq: int) -> str:
    """The stored id of a move the server makes for the turn at ``seq``."""
    return f"srv:{kind}:{seq}"


async def play_for(
    ctx: Context, room_id: str, seat: int, chosen: LegalMove, kind: str, seq: int
) -> None:
    """Play ``chosen`` for ``seat`` as the server's ``kind`` of move for the turn at
    ``seq`` (its id ``server_key``: made once, whichever timer or process gets there
    first), and count it if this call made it.  Every timer move goes through here:
    live rooms' timers and correspondence rooms' deadlines alike."""
    server = server_key(kind, seq)
    result = await play(
        ctx, PlayCard(room_id, seat, chosen.card, chosen.take, server=server, at_seq=seq)
    )
    if not result.duplicate:
        timer_moves = ctx.unit.stats.timer_moves
        timer_moves[kind] = timer_moves.get(kind, 0) + 1


class Automation:
    """The rooms' timers: the unit of work's ``Scheduler``."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.unit = ctx.unit
        self.writes = ctx.writes
        self.sync = ctx.sync

    def schedule(self, rt: RoomRuntime) -> None:
        """After a change: start grace timers for absent players; let a bot play, or
        start the turn clock.

        Call it under the room's lock (a new room's first call aside, before any task
        of it runs).  It cancels a turn task whose seq the room has left, and a timer's
        write applies its events (advancing the seq) before awaiting their commit:
        called outside the lock while such a write is committing, it would cut the
        write short, leaving the room stale for a recovery to reload (issue 45: a
        connection attaching or leaving did so, "room back in step with the database"
        with nothing wrong).  Under the lock no write is in flight, and the write
        itself schedules the room once it is committed."""
        s = self.unit
        if s.closing or rt.stale or rt.evicted:
            return
        st = rt.state
        if st.corr is not None:  # played over days: app/rooms/deadline_poller.py moves
            self._correspondence(rt)
            return
        if st.status == PLAYING:
            connected = rt.hub.connected_seats(st.players)
            for absent, seat_state in enumerate(st.seats):
                if (
                    not seat_state.bot
                    and not seat_state.autoplay
                    and not connected[absent]
                    and absent not in rt.grace_tasks
                ):
                    rt.grace_tasks[absent] = asyncio.create_task(self._grace(rt, absent))
        if rt.turn_seq == st.seq and rt.turn_task is not None and not rt.turn_task.done():
            return
        self.cancel_turn(rt)
        rt.turn_seq = st.seq
        seat = st.to_move
        if seat is None:
            if st.between_deals:  # the next deal waits for Continue (pacing.py)
                rt.turn_task = asyncio.create_task(
                    next_deal_timer(s, self.writes, self.sync, rt, st.seq)
                )
            elif st.rematch is not None:  # an offer lapses unanswered (rematch_expiry.py)
                rt.turn_task = asyncio.create_task(rematch_expiry(s, self.writes, rt, st.seq))
            return
        if st.bot_controls(seat):
            due = st.bot_due()
            if all(st.bot_controls(i) for i in range(st.players)):
                due = max(due, st.changed_at + int(s.settings.bots_only_delay * 1000))
            kind = "bot" if st.seats[seat].bot else STANDIN_MOVE  # marked for everyone
            rt.turn_task = asyncio.create_task(self._turn(rt, st.seq, seat, due, kind))
        else:  # a person: told of the turn through the outbox if away (turn_notice.py)
            clock = st.clock()
            if clock is not None:
                rt.turn_task = asyncio.create_task(
                    self._turn(rt, st.seq, seat, clock["deadline"], "clock")
                )

    def _correspondence(self, rt: RoomRuntime) -> None:
        """A correspondence room runs no turn timer and no grace period here: its moves
        fall due as rows of ``room_deadlines``, which the deadline poller of whichever
        process claims them fires, with nobody connected too (issue 32).  What runs
        here is a rematch offer's expiry (a turn notice is a domain event of the
        commit: turn_notice.py)."""
        s = self.unit
        st = rt.state
        assert st.corr is not None
        s.deadlines_changed()
        if rt.turn_seq == st.seq:
            return
        task = rt.turn_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        rt.turn_task, rt.turn_seq = None, st.seq
        if st.to_move is None and st.rematch is not None:  # an offer lapses (rematch_expiry.py)
            rt.turn_task = asyncio.create_task(rematch_expiry(s, self.writes, rt, st.seq))

    def cancel_turn(self, rt: RoomRuntime) -> None:
        """Stop the room's turn task; under the room's lock, like ``schedule``, so as
        not to cut a timer's write short."""
        task = rt.turn_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        rt.turn_task = None
        rt.turn_seq = -1

    def cancel_all(self, rt: RoomRuntime) -> None:
        self.cancel_turn(rt)
        for task in rt.grace_tasks.values():
            if task is not asyncio.current_task():
                task.cancel()
        rt.grace_tasks.clear()

    def _moved_on(self, rt: RoomRuntime, seq: int, seat: int) -> bool:
        """The turn this timer was for is gone (while the room is stale its state may
        be ahead of the database, so that is not taken as an answer)."""
        s = self.unit
        if s.closing or rt.evicted:
            return True
        return not rt.stale and (rt.state.seq != seq or rt.state.to_move != seat)

    async def _turn(self, rt: RoomRuntime, seq: int, seat: int, due_ms: int, kind: str) -> None:
        """Play one move for ``seat`` at ``due_ms`` unless the room has moved on; retried
        until it is made."""
        s = self.unit
        room_id = rt.state.room_id

        async def seconds_left() -> float:
            # a clock waits for its deadline; a bot thinks meanwhile (see _think_until)
            return (due_ms - now_ms()) / 1000 if kind == "clock" else 0

        async def move() -> bool:
            deal = rt.state.deal
            legal = deal.legal() if deal is not None else ()
            if deal is None or not legal:
                return True
            level = rt.state.options.level_of(seat, rt.state.seats[seat].bot)
            info = deal.information_set(seat)
            preset, deal_seed = rt.state.options.preset, rt.state.seed
            seed = None  # a challenge's moves are seeded by their position (issue 32)
            if preset is not None and deal_seed is not None:
                seed = preset.move_seed(deal_seed, seat, deal.moves)
            chosen = await _think_until(s.chooser(info, legal, level, seed), due_ms)
            if self._moved_on(rt, seq, seat) or rt.stale:
                return False
            await play_for(self.ctx, room_id, seat, chosen, kind, seq)
            return True

        await run_when_due(
            s,
            rt,
            moved_on=lambda: self._moved_on(rt, seq, seat),
            seconds_left=seconds_left,
            act=move,
            what="timer move",
        )

    async def _grace(self, rt: RoomRuntime, seat: int) -> None:
        """A player left: after the grace period a bot plays for them (autoplay),
        unless they are back, here or on another process."""
        s = self.unit
        room_id = rt.state.room_id
        me = asyncio.current_task()
        backoff = s.settings.retry_first
        try:
            await asyncio.sleep(rt.state.options.grace)
            while not (s.closing or rt.evicted):
                st = rt.state
                if not rt.stale:
                    if (
                        st.status != PLAYING
                        or st.seats[seat].bot
                        or st.seats[seat].autoplay
                        or rt.hub.connected_seats(st.players)[seat]
                    ):
                        return
                    try:
                        if not await timers_may_run(s, rt):
                            return  # nobody here: the room waits (grace starts again later)
                        if (await s.broker.remote_presence(room_id, st.players))[seat]:
                            return  # connected to another server process
                        if await s.leases.acquire(room_id):
                            await set_autoplay(self.ctx, SetAutoplay(room_id, seat, True))
                            s.stats.timer_moves["grace"] = s.stats.timer_moves.get("grace", 0) + 1
                            return
                        await asyncio.sleep(s.settings.lease_poll)
                        continue
                    except asyncio.CancelledError:
                        raise
                    except ServiceError as exc:
                        if exc.code not in RETRYABLE:
                            return
                    except BrokerUnavailable as exc:  # who is connected is unknown for now
                        log.info(
                            "grace take-over postponed",
                            extra={"room": room_id, "error": type(exc).__name__},
                        )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, s.settings.retry_max)
        finally:
            if rt.grace_tasks.get(seat) is me:
                del rt.grace_tasks[seat]
