"""Reviewing a finished deal together: one shared review per room, beside the game.

Anyone connected to a room (a player or a spectator) may start a review of any
finished deal of the room, of this match or an earlier one.  Everyone who joins
it sees the position its *driver* shows; the driver steps through the deal and
may hand control to another participant; whoever joins late lands on the
current position; anyone may leave.  When the driver leaves (or their last
connection closes) control passes to the participant who has been there
longest; when the last participant leaves, the review ends.

A review is not part of the game: it never pauses the clock, never advances the
room's seq, and is not stored in the database.  Its state is one small value
shared by the server processes (``app/broker/values.py``: memory with one
process, Redis with several), changed by compare-and-set; after each change
the process that made it sends ``{"type": "review"}`` to its own connections of
the room and publishes the broker message kind ``review`` (seq = the value's
version), on which every other process holding connections of the room reads
the value and sends it to its own.  A participant is recorded with the
processes its connections are on; one whose processes have all died (no fresh
presence report for the room) is dropped at the review's next change.

A review message names a finished deal by its match and deal number and a step;
on the real line it carries no card: the positions come from the deal's record
over HTTP, which exists only once the deal is over.  A what-if (whatif.py) carries
its own position, of that finished deal, in ``branch``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from app.broker import Broker, BrokerUnavailable
from app.broker.values import UNCHANGED, Contended
from app.core.errors import ErrorCode, ServiceError
from app.daily.errors import DailyCode
from app.realtime.audience import Audience, Viewer
from app.wire import review_message

from .archive import Archive
from .errors import ReviewCode
from .evaluator import MoveEvaluator, SampledEvaluator
from .participants import find, participant_id, prune, public, value_key, with_people
from .review_types import Participant, ReviewState, ReviewValue
from .whatif import WhatIfs, check_driver

log = logging.getLogger("krypkasino.review")

KIND = "review"
"""The broker message kind of a review change."""


class Reviews:
    def __init__(
        self,
        broker: Broker,
        audience: Audience,
        archive: Archive,
        seat_name: Callable[[str, int], str | None],
        evaluator: MoveEvaluator | None = None,
        private: Callable[[str], Awaitable[bool]] | None = None,
    ) -> None:
        """``evaluator``: the expected points of a what-if's moves (whatif.py); the
        server hands in the coach's (app/features.py), else the strong bot's sampling.
        ``private``: whether a room's finished deals are its seated players' alone for
        now (a deal of the day's room until the day is over, issue 46): a review shows
        every hand, so there it is neither started, joined nor shown by a spectator."""
        self.broker = broker
        self.audience = audience
        self.archive = archive
        self.seat_name = seat_name
        self.private = private
        self.sent: dict[str, int] = {}
        """Per room, the latest review version this process sent its connections."""
        self.whatifs = WhatIfs(self, archive.store.deal_record, evaluator or SampledEvaluator())

    # ------------------------------------------------------------ connections

    async def attach(self, room_id: str, sink: Any, seat: int | None) -> None:
        """A connection said hello: record it, and show it a review in progress."""
        self.audience.attach(room_id, sink, seat)
        try:
            value = await self.broker.values.get(value_key(room_id))
        except BrokerUnavailable:  # it hears of the review at its next change
            return
        if value is not None and value.get("review") is not None:
            if seat is None and await self._private(room_id):
                return
            sink.send_text(self._message(value, None))

    async def detach(self, room_id: str, sink: Any) -> None:
        """A connection closed: if it was the tab's last one here, its participant
        leaves this process (and the review, when it has no connection elsewhere)."""
        viewer = self.audience.detach(room_id, sink)
        if not self.audience.viewers(room_id):
            self.sent.pop(room_id, None)
        if viewer is None or viewer.review_id is None:
            return
        pid = viewer.review_id
        if any(v.review_id == pid for v in self.audience.viewers(room_id)):
            return
        origin = self.broker.origin

        def leave_here(review: ReviewState) -> ReviewState | None:
            people: list[Participant] = []
            for p in review["participants"]:
                if p["id"] == pid:
                    p = {**p, "origins": [o for o in p["origins"] if o != origin]}
                    if not p["origins"]:
                        continue
                people.append(p)
            return with_people(review, people)

        try:
            await self.change(
                room_id,
                lambda review: leave_here(review) if find(review, pid) is not None else UNCHANGED,
            )
        except ServiceError:
            log.info("could not record a review participant leaving", extra={"room": room_id})

    def moved(self, room_id: str, sink: Any) -> bool:
        """Whether this connection's seat moved to another device (it may not act)."""
        viewer = self.audience.get(room_id, sink)
        return viewer is not None and viewer.moved

    # --------------------------------------------------------------- messages

    async def handle(self, room_id: str, sink: Any, msg: Any) -> None:
        """One validated review message (``app/api/schemas.py``, Review*) of a connection."""
        kind = msg.type
        if kind == "review_start":
            await self.start(room_id, sink, msg.match_no, msg.deal_no, msg.key, msg.name)
        elif kind == "review_join":
            await self.join(room_id, sink, msg.key, msg.name)
        elif kind == "review_step":
            await self.step(room_id, sink, msg.step)
        elif kind == "review_pass":
            await self.hand_over(room_id, sink, msg.to)
        elif kind == "review_leave":
            await self.leave(room_id, sink)
        elif kind == "review_branch":
            await self.whatifs.open(room_id, sink)
        elif kind == "review_branch_play":
            await self.whatifs.play(room_id, sink, msg.card, msg.take or [])
        elif kind == "review_branch_back":
            await self.whatifs.back(room_id, sink)
        elif kind == "review_return":
            await self.whatifs.leave(room_id, sink)
        else:
            raise ServiceError(ErrorCode.BAD_MESSAGE, f"unknown review message {kind!r}")

    async def start(
        self, room_id: str, sink: Any, match_no: int, deal_no: int, key: str, name: str | None
    ) -> None:
        viewer = self._viewer(room_id, sink)
        await self._may_review(room_id, viewer)
        try:
            steps = await self.archive.steps(room_id, match_no, deal_no)
        except ServiceError as exc:
            if exc.code != "not_found":
                raise
            # Its own code: a client takes a bare not_found as "this room is gone".
            raise ServiceError(ErrorCode.DEAL_NOT_OVER, exc.message) from exc
        pid = self._identify(room_id, viewer, key, name)
        me = self._participant(room_id, viewer)

        def change(review: ReviewState | None) -> Any:
            if review is not None and review["driver"] != pid:
                raise ServiceError(
                    ReviewCode.REVIEW_RUNNING,
                    "a review is running in this room: join it, or ask its driver for control",
                )
            if review is None:
                people = [me]
            else:  # the driver switches deals: everyone stays, in the same order
                people = [
                    {**p, "origins": sorted(set(p["origins"]) | set(me["origins"]))}
                    if p["id"] == pid
                    else p
                    for p in review["participants"]
                ]
            return {
                "id": secrets.token_hex(4),
                "match_no": match_no,
                "deal_no": deal_no,
                "steps": steps,
                "step": 0,
                "driver": pid,
                "participants": people,
                "branch": None,
            }

        await self.change(room_id, change)

    async def join(self, room_id: str, sink: Any, key: str, name: str | None) -> None:
        viewer = self._viewer(room_id, sink)
        await self._may_review(room_id, viewer)
        pid = self._identify(room_id, viewer, key, name)
        me = self._participant(room_id, viewer)
        origin = self.broker.origin

        def change(review: ReviewState | None) -> Any:
            if review is None:
                raise ServiceError(ReviewCode.NO_REVIEW, "no review is running in this room")
            there = find(review, pid)
            if there is not None and origin in there["origins"]:
                return UNCHANGED
            people: list[Participant]
            if there is not None:
                people = [
                    {**p, "origins": p["origins"] + [origin]} if p["id"] == pid else p
                    for p in review["participants"]
                ]
            else:
                people = review["participants"] + [me]
            return {**review, "participants": people}

        written, value = await self.change(room_id, change)
        if not written:  # already in: this connection still needs to see where it is
            sink.send_text(self._message(value, pid))

    async def step(self, room_id: str, sink: Any, step: int) -> None:
        pid = self._viewer(room_id, sink).review_id

        def change(review: ReviewState | None) -> Any:
            check_driver(review, pid)
            assert review is not None
            if step > review["steps"]:
                raise ServiceError(ErrorCode.BAD_MESSAGE, f"step must be 0..{review['steps']}")
            if step == review["step"] and review.get("branch") is None:
                return UNCHANGED
            return {**review, "step": step, "branch": None}  # a step returns from a what-if

        await self.change(room_id, change)

    async def hand_over(self, room_id: str, sink: Any, to: str) -> None:
        pid = self._viewer(room_id, sink).review_id

        def change(review: ReviewState | None) -> Any:
            check_driver(review, pid)
            if find(review, to) is None:
                raise ServiceError(ReviewCode.NOT_IN_REVIEW, "no such participant in the review")
            assert review is not None
            return UNCHANGED if to == pid else {**review, "driver": to}

        await self.change(room_id, change)

    async def leave(self, room_id: str, sink: Any) -> None:
        pid = self._viewer(room_id, sink).review_id

        def change(review: ReviewState | None) -> Any:
            if find(review, pid) is None:
                return UNCHANGED
            assert review is not None
            return with_people(review, [p for p in review["participants"] if p["id"] != pid])

        await self.change(room_id, change)

    async def on_broker(self, room_id: str, version: int) -> None:
        """Another process changed the room's review: show it to this process's
        connections of the room."""
        if not self.audience.viewers(room_id) or version <= self.sent.get(room_id, -1):
            return
        try:
            value = await self.broker.values.get(value_key(room_id))
        except BrokerUnavailable:
            return  # the next change is read in full
        if value is not None:
            self._send_local(room_id, value, await self._private(room_id))

    # -------------------------------------------------------------- internals

    async def _private(self, room_id: str) -> bool:
        return self.private is not None and await self.private(room_id)

    async def _may_review(self, room_id: str, viewer: Viewer) -> None:
        """Refuse a spectator a review of a room whose deals are private for now."""
        if viewer.seat is None and await self._private(room_id):
            raise ServiceError(
                DailyCode.DAILY_PRIVATE,
                "this room played today's deal of the day: its deals are its player's "
                "alone until the day is over (UTC)",
            )

    def participant_of(self, room_id: str, sink: Any) -> str | None:
        """This connection's participant id (None until it sent a review message)."""
        return self._viewer(room_id, sink).review_id

    async def current(self, room_id: str) -> ReviewState | None:
        """The review as it stands (read, not changed)."""
        try:
            value = await self.broker.values.get(value_key(room_id))
        except BrokerUnavailable as exc:
            raise _unreachable() from exc
        return value.get("review") if value else None

    def _viewer(self, room_id: str, sink: Any) -> Viewer:
        viewer = self.audience.get(room_id, sink)
        if viewer is None:
            raise ServiceError(ErrorCode.BAD_MESSAGE, "say hello first")
        return viewer

    def _identify(self, room_id: str, viewer: Viewer, key: str, name: str | None) -> str:
        viewer.review_id = participant_id(room_id, key)
        viewer.name = name
        return viewer.review_id

    def _participant(self, room_id: str, viewer: Viewer) -> Participant:
        name = self.seat_name(room_id, viewer.seat) if viewer.seat is not None else None
        assert viewer.review_id is not None, "identified first"
        return {
            "id": viewer.review_id,
            "name": name or viewer.name,
            "seat": viewer.seat,
            "origins": [self.broker.origin],
        }

    async def change(self, room_id: str, change: Callable[[Any], Any]) -> tuple[bool, Any]:
        """Prune the gone, apply ``change`` to the review, store it with the next version,
        then tell this process's connections and the other processes."""
        try:
            live = await self.broker.live_origins(room_id)
        except BrokerUnavailable as exc:
            raise _unreachable() from exc

        def full(value: ReviewValue | None) -> Any:
            version = value["version"] if value else 0
            review = value.get("review") if value else None
            pruned = prune(review, live) if review is not None else None
            new = change(pruned)
            if new is UNCHANGED:
                if pruned == review:
                    return UNCHANGED
                new = pruned
            return {"version": version + 1, "review": new}

        try:
            written, value = await self.broker.values.update(value_key(room_id), full)
        except Contended as exc:
            raise ServiceError(ErrorCode.BUSY, "the review is busy; try again") from exc
        except BrokerUnavailable as exc:
            raise _unreachable() from exc
        if written:
            self._send_local(room_id, value, await self._private(room_id))
            # publish logs its own failures; the others read the change at their next
            await self.broker.publish(room_id, value["version"], KIND)
        return written, value

    def _send_local(self, room_id: str, value: ReviewValue, private: bool) -> None:
        """Show the review to this process's connections of the room (to its seated
        players only while its deals are ``private``)."""
        self.sent[room_id] = max(self.sent.get(room_id, -1), value["version"])
        for viewer in self.audience.viewers(room_id):
            if private and viewer.seat is None:
                continue
            viewer.sink.send_text(self._message(value, viewer.review_id))

    @staticmethod
    def _message(value: ReviewValue, me: str | None) -> str:
        return review_message(value["version"], public(value.get("review")), me)


def _unreachable() -> ServiceError:
    return ServiceError(
        ErrorCode.UNAVAILABLE,
        "shared reviews are not reachable right now "
        "(the servers' Redis is not answering); the game goes on",
    )
