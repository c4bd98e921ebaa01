"""Building what stands beside play: room history and shared reviews, players who
change devices (issue #11); chat, reactions and the public room list (issue #12).

``app/main.py`` calls ``build`` once the room service exists; each feature gets the
rooms' unit of work (never the service itself) and its own database rows, and the
broker kinds it answers are registered with the rooms here.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.accounts.attempts import AttemptLimits
from app.accounts.oidc import OidcConfig, OidcFlow
from app.accounts.service import Accounts, AccountSettings
from app.config import Settings
from app.db.accounts import AccountRows
from app.db.history import HistoryReads
from app.db.oidc import PendingRows
from app.db.players import PlayerRows
from app.db.repository import RoomRepository
from app.db.social import ChatRows, PublicRoomRows
from app.players.players import Players
from app.realtime.audience import MOVED_MESSAGES, Audience
from app.review import review
from app.review.archive import Archive
from app.review.review import Reviews
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


def build(service: RoomService, repo: RoomRepository) -> Features:
    """The features over ``service``'s rooms, with their broker kinds registered."""
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
    return Features(
        audience=audience,
        archive=archive,
        reviews=reviews,
        players=Players(PlayerRows(repo), seat_moved),
        chat=chat,
        public_rooms=PublicRooms(unit, PublicRoomRows(repo)),
    )


def build_accounts(repo: RoomRepository, settings: Settings) -> Accounts:
    """Optional accounts (issue 34) on the repository's database, with the host's settings."""
    return Accounts(
        AccountRows(repo),
        AccountSettings(
            session_days=settings.session_days,
            password_login=settings.password_login,
            limits=AttemptLimits(
                per_account=settings.login_failures_per_account,
                per_address=settings.login_failures_per_address,
                window_s=settings.login_failure_window,
            ),
        ),
    )


def oidc_flow(settings: Settings, repo: RoomRepository) -> OidcFlow | None:
    """Sign-in through the host's OpenID Connect provider, when OIDC_ISSUER is set.

    The client (and the HTTP library under authlib's client) is imported only then:
    a server without a provider never loads it."""
    if settings.oidc_issuer is None or settings.oidc_client_id is None:
        return None
    try:
        from app.accounts.oidc_client import OidcClient
    except ImportError as exc:  # authlib's client runs on httpx (or httpx2)
        raise RuntimeError(
            f"OIDC_ISSUER is set but the OpenID Connect client cannot load ({exc}): "
            "install the httpx package beside the server"
        ) from exc

    config = OidcConfig(
        issuer=settings.oidc_issuer,
        client_id=settings.oidc_client_id,
        client_secret=settings.oidc_client_secret,
        name=settings.oidc_name,
        scopes=settings.oidc_scopes,
    )
    return OidcClient(config, PendingRows(repo))
