"""Who follows the rooms' domain events (app/core/outbox.py), registered in one place.

Each subscriber is idempotent, as the outbox asks: rating a match records it once by
(room, match); the deal of the day records a room's result once; an analysis is
queued once by (room, match, deal).  Each raises when it could not do its work (the
database away), so that the dispatcher hands the event over again later.
"""

from __future__ import annotations

from app.coach.service import Coach
from app.core.outbox import DEAL_ENDED, MATCH_ENDED, StoredEvent, Subscriptions
from app.daily.service import Daily
from app.ratings.ratings import Ratings
from app.rooms.domain.match_end import match_from_json


def subscriptions(ratings: Ratings, daily: Daily, coach: Coach) -> Subscriptions:
    subs = Subscriptions()

    async def rate(event: StoredEvent) -> None:
        await ratings.on_match_end(match_from_json(event.body))

    async def daily_result(event: StoredEvent) -> None:
        await daily.match_ended(match_from_json(event.body))

    async def analyse(event: StoredEvent) -> None:
        body = event.body
        await coach.deal_ended(event.room_id, int(str(body["match_no"])), int(str(body["deal_no"])))

    subs.subscribe("ratings", [MATCH_ENDED], rate)
    subs.subscribe("daily", [MATCH_ENDED], daily_result)
    subs.subscribe("coach", [DEAL_ENDED], analyse)
    return subs
