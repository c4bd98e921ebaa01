"""Telling a player whose page is closed that their turn has come (issue 32), through
the outbox (issue 48).

The rooms store a ``turn_changed`` domain event (app/core/outbox.py) where a notice
may follow, due ``notice_delay`` later, so that a reload or a phone switching
networks does not ring:

- with the commit that leaves a person (not a bot, no stand-in) to move while no
  connection of their seat is open in this process (``with_commit``: in the commit's
  own transaction, so a process that dies after the commit loses no notice);
- when the last connection here of the seat to move closes during its turn, and
  when someone connects to a room nobody here was at while an absent person is to
  move (``store_absent``: a small transaction of its own).

Nothing runs here until then: whichever process's outbox dispatcher claims the
event once it is due asks ``TurnWatch.waiting`` (the port app/features.py hands Web
Push, app/notify/turns.py) whether it still matters: the stored room is still at the
event's seq (nobody moved), no connection of the seat is open here or on another
process, and in a live room someone is at the room (a live room nobody is at is
paused: nothing is due of anyone).  The notifier's row per (room, turn, seat) tells
a turn once.  A table whose players all have their pages open stores nothing per
move; a server with PUSH off stores nothing at all.
"""

from __future__ import annotations

import logging

from app.broker import BrokerUnavailable
from app.core.clock import now_ms
from app.core.errors import Unavailable
from app.core.outbox import NewEvent, body_int

from .attendance import room_attended
from .domain.outcomes import MOVED, turn_changed
from .runtime import RoomRuntime
from .unit import RoomsUnit

log = logging.getLogger("krypkasino.rooms")


def _delay_ms(unit: RoomsUnit) -> int:
    return int(unit.settings.notice_delay * 1000)


def with_commit(unit: RoomsUnit, rt: RoomRuntime, at_ms: int) -> NewEvent | None:
    """The turn notice to store with a commit whose events are applied to ``rt``'s
    state (before they are stored), or None: turn notices are off, nobody or a bot is
    to move, or the seat to move has a page open here."""
    if not unit.settings.turn_notices:
        return None
    st = rt.state
    seat = st.to_move
    if seat is None or rt.hub.connected_seats(st.players)[seat]:
        return None
    return turn_changed(st, at_ms, _delay_ms(unit), MOVED)


def stored(unit: RoomsUnit, rt: RoomRuntime, event: NewEvent) -> None:
    """After ``event`` was stored: remember it, and ring the outbox's dispatcher when
    it falls due (a dispatcher elsewhere finds it by its poll)."""
    due = event.due_ms if event.due_ms is not None else now_ms()
    rt.notice = (body_int(event.body, "seq"), body_int(event.body, "seat"), due)
    unit.doorbell.ring_in((due - now_ms()) / 1000)


async def store_absent(unit: RoomsUnit, rt: RoomRuntime, cause: str) -> None:
    """Store a turn notice for the person to move, due ``notice_delay`` from now, if
    no connection of theirs is open here: their last page here just closed
    (``LEFT``), or the room had nobody here until now (``BACK``).  Not again while
    one this process stored for the same turn is still to fall due."""
    st = rt.state
    seat = st.to_move
    if not unit.settings.turn_notices or seat is None or rt.stale:
        return
    if rt.hub.connected_seats(st.players)[seat]:
        return
    now = now_ms()
    held = rt.notice
    if held is not None and held[:2] == (st.seq, seat) and held[2] > now:
        return
    event = turn_changed(st, now, _delay_ms(unit), cause)
    if event is None:
        return
    try:
        await unit.store.add_events([event], now)
    except Unavailable:  # a connection's side step: a notice may be lost, never a move
        log.warning("turn notice not stored: database unavailable", extra={"room": st.room_id})
        return
    stored(unit, rt, event)


class TurnWatch:
    """Whether a stored turn notice still matters when it falls due: the port Web
    Push's subscriber asks (app/notify/turns.py), built over the rooms' unit."""

    def __init__(self, unit: RoomsUnit) -> None:
        self.unit = unit

    async def waiting(self, room_id: str, seq: int, seat: int, players: int, live: bool) -> bool:
        unit = self.unit
        # the stored seq, not this process's copy: another process may hold the room
        if (await unit.store.room_seqs([room_id])).get(room_id) != seq:
            return False
        rt = unit.rooms.get(room_id)
        if rt is not None and rt.hub.connected_seats(players)[seat]:
            return False
        try:
            if (await unit.broker.remote_presence(room_id, players))[seat]:
                return False
        except BrokerUnavailable:
            pass  # nobody known elsewhere: told (as the rooms' attendance counts then)
        return not live or await room_attended(unit, room_id)
