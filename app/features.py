"""Building what stands beside play: room history and shared reviews, players who
change devices (issue #11); chat, reactions and the public room list (issue #12).

``app/main.py`` calls ``build`` once the room service exists; each feature gets the
rooms' unit of work (never the service itself) and its own database rows, and the
broker kinds it answers are registered with the rooms here.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.coach.rating import Settings as CoachSettings
from app.coach.runner import Runner, RunnerSettings
from app.coach.service import Coach
from app.config import Settings
from app.db.analyses import AnalysisRows
from app.db.history import HistoryReads
from app.db.players import PlayerRows
from app.db.repository import RoomRepository
from app.db.social import ChatRows, PublicRoomRows
from app.players.players import Players
from app.realtime.audience import MOVED_MESSAGES, Audience
from app.review import review
from app.review.archive import Archive
from app.review.review import Reviews
from app.rooms.background import BackgroundPool
from app.rooms.service import RoomService
from app.rooms.unit import BrokerHandler
from app.social import chat as chat_kinds
from app.social.chat import Chat
from app.social.public_rooms import PublicRooms


def seat_moved_kind(reason: str) -> str:
    """The broker message kind telling the processes a seat moved (seq: the seat)."""
    return f"seat_{reason}"


@dataclass(slots=True, eq=False)
class Features:
    audience: Audience
    archive: Archive
    reviews: Reviews
    players: Players
    chat: Chat
    public_rooms: PublicRooms
    coach: Coach
    coach_runner: Runner
    background: BackgroundPool

    def start(self) -> None:
        """Start what runs by itself (the coach's analyses); after the rooms started."""
        self.coach_runner.start()

    async def stop(self) -> None:
        """Stop it again; before the rooms stop."""
        await self.coach_runner.stop()
        self.background.close()


def build(service: RoomService, repo: RoomRepository, settings: Settings | None = None) -> Features:
    """The features over ``service``'s rooms, with their broker kinds registered."""
    settings = settings or Settings()
    audience = Audience()
    archive = Archive(HistoryReads(repo))
    unit = service.unit

    def seat_name(room_id: str, seat: int) -> str | None:
        rt = unit.rooms.get(room_id)
        if rt is None or not 0 <= seat < rt.state.players:
            return None
        return rt.state.seats[seat].name

    reviews = Reviews(unit.broker, audience, archive, seat_name)

    async def seat_moved(room_id: str, seat: int, reason: str) -> None:
        """Tell this process's connections of the seat now, the others' via the broker."""
        audience.kick(room_id, seat, reason)
        # publish logs its own failures; the seat's token is changed anyway
        await unit.broker.publish(room_id, seat, seat_moved_kind(reason))

    def kicker(reason: str) -> BrokerHandler:
        async def kick(room_id: str, seat: int) -> None:
            audience.kick(room_id, seat, reason)

        return kick

    chat = Chat(unit, service.writes, audience, ChatRows(repo))
    unit.on_broker_kind[review.KIND] = reviews.on_broker
    unit.on_broker_kind[chat_kinds.KIND] = chat.on_broker
    unit.on_broker_kind[chat_kinds.REACTION_KIND] = chat.on_reaction
    for reason in MOVED_MESSAGES:
        unit.on_broker_kind[seat_moved_kind(reason)] = kicker(reason)
    background = BackgroundPool(service.bots, settings.coach_workers)
    analyses = AnalysisRows(repo)
    runner = Runner(
        analyses,
        background.run,
        service.broker.origin,
        CoachSettings(samples=settings.coach_samples, max_samples=4 * settings.coach_samples),
        RunnerSettings(lease_s=settings.coach_lease_seconds),
    )
    coach = Coach(analyses, runner.poke, settings.coach_queue, settings.coach_on_deal_end)
    unit.on_deal_over = coach.deal_over
    return Features(
        audience=audience,
        archive=archive,
        reviews=reviews,
        players=Players(PlayerRows(repo), seat_moved),
        chat=chat,
        public_rooms=PublicRooms(unit, PublicRoomRows(repo)),
        coach=coach,
        coach_runner=runner,
        background=background,
    )
