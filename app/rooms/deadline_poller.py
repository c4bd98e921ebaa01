"""Firing correspondence rooms' deadlines, exactly once across processes (issue 32).

Every server process runs one poller.  It claims the rows of ``room_deadlines`` that
fell due (``RoomStore.claim_deadlines``: one process per row, however many ask; a
claim on a ``move`` row is a lease, so a process that dies holding it leaves it to
another once it runs out), and fires each: a warning was stored as a
``deadline_near`` domain event by its claim (the outbox's dispatcher hands it to Web
Push; this only rings the dispatcher's doorbell); a move loads the room (nobody need
be connected), checks that the turn is still the one the row was written for and
that it is due, and plays for the seat: a bot seat's or stand-in's move, or a clock
move for an absent person (``srv:clock:{seq}``, marked as in live rooms).  The
move's own commit replaces the row (app/rooms/writes.py), so it is never fired
twice; a room nobody here is connected to then leaves memory again.  Rows that fell
due while every process was down are simply due at the next start.
"""

from __future__ import annotations

import asyncio
import logging

from app.core.clock import now_ms
from app.core.errors import ServiceError, Unavailable
from app.core.loops import Doorbell, Sweeper

from .automation import play_for
from .commands.context import Context
from .deadline_rows import deadline_rows
from .domain.correspondence import MOVE
from .domain.events import CLOCK_MOVE, STANDIN_MOVE
from .registry import runtime, unload_if_unattended
from .store import DueDeadline

log = logging.getLogger("krypkasino.deadlines")

BATCH = 50
"""Rows claimed at a time."""
FIRING = 8
"""Rows fired at once by one process (each may load a room and think a move)."""
MIN_WAIT = 0.05
"""Seconds the poller waits at least between two rounds (no spinning on a row that
another process holds)."""


class DeadlinePoller:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.unit = unit = ctx.unit
        self.sync = ctx.sync
        self.owner = unit.broker.origin
        self.wake = Doorbell()
        self.firing: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(FIRING)
        self._wait = unit.settings.deadline_poll
        self._loop = Sweeper(
            "deadlines",
            self._look,
            unit.settings.deadline_poll,
            log,
            quiet=(Unavailable,),
            jitter=False,
            pause=self._pause,
        )

    def poke(self) -> None:
        """A row may have become due sooner: look again now."""
        self.wake.ring()

    def start(self) -> None:
        """Claim and fire due rows until ``stop``."""
        self._loop.start()

    async def _pause(self) -> None:
        await self.wake.wait(self._wait)

    async def _look(self) -> None:
        """One round: claim what is due and start firing it; ``_wait`` says when to
        look again (soon after a claim, when the next row falls due, or after a back-off
        when the round failed)."""
        unit = self.unit
        self._wait = unit.settings.retry_max  # unless the round gets through
        wait = unit.settings.deadline_poll
        now = now_ms()
        # a read first: a process with nothing due writes nothing (on SQLite a
        # claim is a write transaction)
        due = await unit.store.next_deadline()
        claimed = []
        if due is not None and due <= now:
            lease = int(unit.settings.lease_seconds * 1000)
            claimed = await unit.store.claim_deadlines(self.owner, now, now + lease, BATCH)
        for row in claimed:
            fired = unit.stats.deadlines_claimed
            fired[row.kind] = fired.get(row.kind, 0) + 1
            if row.kind != MOVE:  # stored as a domain event by the claim: handed on
                unit.doorbell.ring()
                continue
            task = asyncio.create_task(self._fire(row))
            self.firing.add(task)
            task.add_done_callback(self.firing.discard)
        if claimed:
            wait = MIN_WAIT  # look again soon: more may be due
        elif due is not None:
            wait = min(wait, max(MIN_WAIT, (due - now_ms()) / 1000))
        self._wait = wait

    async def stop(self) -> None:
        await self._loop.stop()
        for task in list(self.firing):
            task.cancel()

    async def _fire(self, row: DueDeadline) -> None:
        unit = self.unit
        async with self.slots:
            try:
                if not await self._move(row):
                    unit.stats.deadlines_skipped += 1
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - retried: by this process or another, soon
                code = exc.code if isinstance(exc, ServiceError) else type(exc).__name__
                log.info("deadline not fired; retrying", extra={"room": row.room_id, "code": code})
                retry = now_ms() + int(unit.settings.retry_max * 1000)
                try:
                    await unit.store.release_deadline(
                        row.room_id, row.kind, row.seq, self.owner, retry
                    )
                    unit.stats.deadlines_released += 1
                except Unavailable:
                    pass  # the claim runs out by itself
            finally:
                unload_if_unattended(unit, row.room_id)

    async def _move(self, row: DueDeadline) -> bool:
        """Play the move the row is for, if the room still waits for it and it is due:
        whether it was played or given back (False: nothing was left to play)."""
        unit = self.unit
        try:
            rt = await runtime(unit, row.room_id)
        except ServiceError as exc:
            if exc.code == "not_found":  # the room is gone (purged): so is its row
                await unit.store.drop_deadline(row.room_id, row.kind, row.seq)
                return False
            raise
        await self.sync.catch_up(row.room_id)  # another process may have moved it on
        st = rt.state
        seat = st.to_move
        if st.corr is None or seat is None or seat != row.seat or st.corr.turn_seq != row.seq:
            if deadline_rows(st, unit.settings, now_ms()) in ([], None):
                # a room no longer waiting (closed by an operator): the row goes
                await unit.store.drop_deadline(row.room_id, row.kind, row.seq)
            return False  # else its own write replaced the row already
        if st.bot_controls(seat):
            kind = "bot" if st.seats[seat].bot else STANDIN_MOVE
            due = row.due_ms
        else:
            clock = st.clock()
            kind, due = CLOCK_MOVE, clock["deadline"] if clock is not None else row.due_ms
        if now_ms() < due:  # a vacation moved it out since: claimed again then
            await unit.store.release_deadline(row.room_id, row.kind, row.seq, self.owner, due)
            unit.stats.deadlines_released += 1
            return True
        deal = st.deal
        legal = deal.legal() if deal is not None else ()
        if deal is None or not legal:
            return False
        level = st.options.level_of(seat, st.seats[seat].bot)
        at_seq = st.seq
        chosen = await unit.chooser(deal.information_set(seat), legal, level)
        if rt.state is not st or st.seq != at_seq:
            return False  # moved on while the bot thought: the new row is due in its turn
        await play_for(self.ctx, row.room_id, seat, chosen, kind, at_seq)
        return True
