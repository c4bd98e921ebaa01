"""What a room event means to the features around the rooms: the domain events
(app/core/outbox.py) a commit stores beside its room events.

Pure: read from the event just applied and the state right after it, so that the
same log always yields the same domain events, whichever process writes it.  The
write path (app/rooms/writes.py) calls ``outcomes`` once per event it applies and
stores the result in the same transaction.
"""

from __future__ import annotations

from typing import Final

from app.core.outbox import (
    DEADLINE_NEAR,
    DEAL_ENDED,
    MATCH_ENDED,
    ROOM_CLOSED,
    SEAT_CHANGED,
    TURN_CHANGED,
    JsonBody,
    NewEvent,
)

from .correspondence import WARNINGS
from .events import AutoplaySet, Played, RoomClosed, RoomEvent, SeatTaken
from .match_end import finished_match, match_json
from .state import RoomState


def outcomes(st: RoomState, ev: RoomEvent) -> list[NewEvent]:
    """The domain events of ``ev``, given ``st`` just after it was applied."""
    room = st.room_id
    body = ev.body
    if isinstance(body, SeatTaken):
        return [NewEvent(room, SEAT_CHANGED, {"seat": body.seat, "change": "taken"})]
    if isinstance(body, AutoplaySet) and not st.seats[body.seat].bot:
        change = "stand_in" if body.on else "returned"
        return [NewEvent(room, SEAT_CHANGED, {"seat": body.seat, "change": change})]
    if isinstance(body, RoomClosed):
        return [NewEvent(room, ROOM_CLOSED, {})]
    # ``finished_deal`` is set by the one event that ended a deal (RoomState.apply)
    if not isinstance(body, Played) or st.finished_deal is None or st.match is None:
        return []
    ended = [
        NewEvent(
            room,
            DEAL_ENDED,
            {"match_no": st.match_no, "deal_no": st.finished_deal["deal_no"]},
        )
    ]
    finished = finished_match(st) if st.match.is_over else None
    if finished is not None:
        ended.append(NewEvent(room, MATCH_ENDED, match_json(finished)))
    return ended


MOVED: Final = "move"
"""A ``turn_changed`` stored with the commit that gave the turn."""
LEFT: Final = "left"
"""... stored when the player's last page closed during their turn."""
BACK: Final = "back"
"""... stored when someone came back to a room nobody was at in this process."""
HOURS: Final = dict(WARNINGS)


def turn_changed(st: RoomState, at_ms: int, delay_ms: int, cause: str) -> NewEvent | None:
    """The turn notice's event (``TURN_CHANGED``) when a person is to move, due
    ``delay_ms`` after ``at_ms`` (the commit, or the moment the page closed), or in a
    correspondence room after the turn began; None when a bot or a stand-in moves, or
    nobody.  Whether the person has a page open is the caller's to know (the write
    path stores it only when none is open in its process)."""
    seat = st.to_move
    if seat is None or st.bot_controls(seat):
        return None
    corr = st.corr
    turn, since = st.seq, at_ms
    if corr is not None:
        turn = corr.turn_seq
        if cause == MOVED:  # a page closing later counts from then, as in a live room
            since = corr.turn_at
    body: JsonBody = {
        "seq": st.seq,
        "turn": turn,
        "seat": seat,
        "players": st.players,
        "live": corr is None,
        "match_no": st.match_no,
        "deal_no": st.deal_no,
        "cause": cause,
    }
    return NewEvent(st.room_id, TURN_CHANGED, body, due_ms=since + delay_ms)


def deadline_near(room_id: str, kind: str, seq: int, seat: int) -> NewEvent:
    """The ``DEADLINE_NEAR`` event of a claimed warning row of ``room_deadlines``
    (``kind`` one of correspondence.WARNINGS; ``seq`` the turn's first seq)."""
    return NewEvent(room_id, DEADLINE_NEAR, {"seq": seq, "seat": seat, "hours": HOURS[kind]})
