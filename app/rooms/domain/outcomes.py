"""What a room event means to the features around the rooms: the domain events
(app/core/outbox.py) a commit stores beside its room events.

Pure: read from the event just applied and the state right after it, so that the
same log always yields the same domain events, whichever process writes it.  The
write path (app/rooms/writes.py) calls ``outcomes`` once per event it applies and
stores the result in the same transaction.
"""

from __future__ import annotations

from app.core.outbox import DEAL_ENDED, MATCH_ENDED, ROOM_CLOSED, SEAT_CHANGED, NewEvent

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
