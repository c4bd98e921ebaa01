"""Who follows the rooms' domain events (app/core/outbox.py), registered in one place.

Each subscriber is idempotent, as the outbox asks: rating a match records it once by
(room, match); the deal of the day records a room's result once; an analysis is
queued once by (room, match, deal); Web Push tells a turn once by (room, turn, seat)
and a deadline warning once by (room, turn, seat, hours) (app/notify/turns.py).  Each
raises when it could not do its work (the database away), so that the dispatcher
hands the event over again later.

Nobody subscribes to ``seat_changed``, ``room_closed`` or ``rating_changed`` yet: they
are stored for the clubs and tournaments to come (docs/architecture.md).  Quick
pairing reacts to no room event (it makes rooms through the room service and is
done), so it subscribes to none.
"""

from __future__ import annotations

from app.coach.service import Coach
from app.core.outbox import DEAL_ENDED, MATCH_ENDED, StoredEvent, Subscriptions, body_int
from app.daily.service import Daily
from app.notify.turns import PushNotices
from app.ratings.ratings import Ratings
from app.rooms.domain.match_end import match_from_json


def subscriptions(
    ratings: Ratings, daily: Daily, coach: Coach, push: PushNotices | None = None
) -> Subscriptions:
    """Every subscriber of the server, by name (``push``: None with PUSH off)."""
    subs = Subscriptions()

    async def rate(event: StoredEvent) -> None:
        await ratings.on_match_end(match_from_json(event.body))

    async def daily_result(event: StoredEvent) -> None:
        await daily.match_ended(match_from_json(event.body))

    async def analyse(event: StoredEvent) -> None:
        body = event.body
        await coach.deal_ended(event.room_id, body_int(body, "match_no"), body_int(body, "deal_no"))

    subs.subscribe("ratings", [MATCH_ENDED], rate)
    subs.subscribe("daily", [MATCH_ENDED], daily_result)
    subs.subscribe("coach", [DEAL_ENDED], analyse)
    if push is not None:
        push.subscribe(subs)
    return subs
