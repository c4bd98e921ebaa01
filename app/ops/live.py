"""What this process holds in memory, for the admin page: its rooms, their
connections, and whether a bot is about to move in them."""

from __future__ import annotations

import time

from app.realtime.hub import SPECTATORS
from app.rooms.index_types import RoomLine
from app.rooms.runtime import RoomRuntime


def bot_turn(rt: RoomRuntime) -> bool:
    """A bot (or the autoplay of an absent player) is waiting to move or thinking."""
    st, task = rt.state, rt.turn_task
    seat = st.to_move
    return task is not None and not task.done() and seat is not None and st.bot_controls(seat)


def room_line(rt: RoomRuntime, now: float | None = None) -> RoomLine:
    st, hub = rt.state, rt.hub
    counts = hub.seat_counts(st.players)
    spectators = hub.audiences.get(SPECTATORS)
    return {
        "room_id": st.room_id,
        "code": st.code,
        "status": st.status,
        "players": st.players,
        "seq": st.seq,
        "deal_no": st.deal_no,
        "match_no": st.match_no,
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "bot": s.bot,
                "outside_bot": s.outside_bot,
                "autoplay": s.autoplay,
                "connections": counts[i],
            }
            for i, s in enumerate(st.seats)
        ],
        "connections": hub.connection_count(),
        "spectators": len(spectators.sinks) if spectators is not None else 0,
        "bot_turn": bot_turn(rt),
        "idle_seconds": round((now or time.monotonic()) - rt.idle_since, 1),
        "closed": st.closed,
    }
