"""Web Push as a subscriber of the rooms' domain events (issue 48): "your turn" and
"your deadline is near" come through the outbox (app/core/outbox.py), not through a
hook the rooms call.

A ``turn_changed`` event is due only after the notice delay (the rooms store it with
``due_ms``), and is handed over by whichever process claims it, once the delay is
over.  Whether it still matters then is the rooms' to say, through ``TurnWatch`` (a
port that app/features.py builds over the rooms): the turn has not moved on, no page
of the player's is open on any process, and in a live room someone is at the room.
Only a seat with subscriptions is asked (most have none), and the notice is told
once per (room, turn, seat) by the notifier's row, however often the event is handed
over (a process that died after sending and before the outbox's "handled" row).

A ``deadline_near`` event is told once per (room, turn, seat, hours) by its own row.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from app.core.outbox import DEADLINE_NEAR, TURN_CHANGED, StoredEvent, Subscriptions, body_int

TURN_SUBSCRIBER = "push_turn"
DEADLINE_SUBSCRIBER = "push_deadline"
"""The subscribers' names (stored with every event they handled: never renamed)."""


class TurnWatch(Protocol):
    async def waiting(self, room_id: str, seq: int, seat: int, players: int, live: bool) -> bool:
        """The room is still at ``seq`` (``seat`` to move), no connection of the seat
        is open anywhere, and (``live``) someone is at the room."""
        ...


class Teller(Protocol):
    """Who tells (``PushService``)."""

    async def turn_started(
        self,
        room_id: str,
        seq: int,
        seat: int,
        still: Callable[[], Awaitable[bool]] | None = None,
    ) -> None: ...

    async def deadline_near(self, room_id: str, seq: int, seat: int, hours: int) -> None: ...


class PushNotices:
    """Turns and deadlines told by Web Push, as the outbox hands them over."""

    def __init__(self, push: Teller, watch: TurnWatch) -> None:
        self.push = push
        self.watch = watch

    def subscribe(self, subs: Subscriptions) -> None:
        subs.subscribe(TURN_SUBSCRIBER, [TURN_CHANGED], self.turn_changed)
        subs.subscribe(DEADLINE_SUBSCRIBER, [DEADLINE_NEAR], self.deadline_near)

    async def turn_changed(self, event: StoredEvent) -> None:
        body = event.body
        seq, seat, players = (
            body_int(body, "seq"),
            body_int(body, "seat"),
            body_int(body, "players"),
        )
        live = body.get("live") is not False

        async def still() -> bool:
            return await self.watch.waiting(event.room_id, seq, seat, players, live)

        await self.push.turn_started(event.room_id, body_int(body, "turn"), seat, still)

    async def deadline_near(self, event: StoredEvent) -> None:
        body = event.body
        await self.push.deadline_near(
            event.room_id, body_int(body, "seq"), body_int(body, "seat"), body_int(body, "hours")
        )
