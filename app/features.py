"""Wiring of what stands beside play: room history, shared reviews, and players who
change devices (issue #11); chat, reactions and the public room list (issue #12).
``create_app`` calls ``install`` once the room service exists; the routes are in
``app/api/history.py``, ``app/api/players.py`` and ``app/api/social.py``.
"""

from __future__ import annotations

from fastapi import FastAPI

from app.api import social
from app.db.history import HistoryReads
from app.db.players import PlayerRows
from app.db.repository import RoomRepository
from app.db.social import ChatRows, PublicRoomRows
from app.rooms import review
from app.rooms.archive import Archive
from app.rooms.audience import MOVED_MESSAGES, Audience
from app.rooms.chat import Chat
from app.rooms.lobby import PublicRooms
from app.rooms.players import Players
from app.rooms.review import Reviews
from app.rooms.service import RoomService


def seat_moved_kind(reason: str) -> str:
    """The broker message kind telling the processes a seat moved (seq: the seat)."""
    return f"seat_{reason}"


def install(app: FastAPI, service: RoomService, repo: RoomRepository) -> None:
    """Build the archive, reviews and players services on ``app.state`` and let the
    room service's broker deliver their message kinds."""
    audience = Audience()
    archive = Archive(HistoryReads(repo))

    def seat_name(room_id: str, seat: int) -> str | None:
        rt = service.rooms.get(room_id)
        if rt is None or not 0 <= seat < rt.state.players:
            return None
        return rt.state.seats[seat].name

    reviews = Reviews(service.broker, audience, archive, seat_name)

    async def seat_moved(room_id: str, seat: int, reason: str) -> None:
        """Tell this process's connections of the seat now, the others' via the broker."""
        audience.kick(room_id, seat, reason)
        try:
            await service.broker.publish(room_id, seat, seat_moved_kind(reason))
        except Exception:  # publish logs its own failures; the token is changed anyway
            pass

    def kicker(reason: str):  # type: ignore[no-untyped-def]
        async def kick(room_id: str, seat: int) -> None:
            audience.kick(room_id, seat, reason)

        return kick

    service.on_broker_kind[review.KIND] = reviews.on_broker
    for reason in MOVED_MESSAGES:
        service.on_broker_kind[seat_moved_kind(reason)] = kicker(reason)
    app.state.audience = audience
    app.state.archive = archive
    app.state.reviews = reviews
    app.state.players = Players(PlayerRows(repo), seat_moved)
    social.install(
        app,
        service,
        Chat(service, audience, ChatRows(repo)),
        PublicRooms(service, PublicRoomRows(repo)),
        app.state.settings.public_list_per_minute,
    )
