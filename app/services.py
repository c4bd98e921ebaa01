"""Everything the HTTP routes and the WebSocket endpoint are handed, as one typed object.

``app/main.py`` builds it when the server starts and keeps it on ``app.state``;
``app/api/deps.py`` is the only reader, and hands its parts to the handlers as
``Annotated`` dependencies.  It names what the API may use, and nothing here is
a database class: the API speaks to storage only through the rooms, the
features, and ``DatabaseFacts`` (the readiness check and the admin page).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.accounts.access_tokens import AccessTokens
from app.accounts.oidc import OidcFlow
from app.accounts.service import Accounts
from app.botplay.service import BotPlay
from app.clubs.service import Clubs
from app.coach.service import Coach
from app.config import Settings
from app.daily.service import Daily
from app.daily.solo import Solo
from app.ladder.service import Ladder
from app.limits.admin import AdminGate
from app.limits.http import HttpLimits
from app.limits.rate import KeyedRateLimit
from app.limits.sockets import SocketGuard
from app.metrics import Metrics
from app.notify.email import EmailNotices
from app.notify.service import PushService
from app.notify.settings import NoticeChoices
from app.ops.botload import BotLoad
from app.ops.room_index import IndexPage, RoomQuery
from app.pairing.queue import Pairing
from app.players.players import Players
from app.ratings.profiles import Profiles
from app.ratings.ratings import Ratings
from app.realtime.audience import Audience
from app.review.archive import Archive
from app.review.review import Reviews
from app.rooms.service import RoomService
from app.social.chat import Chat
from app.social.public_rooms import PublicRooms
from app.tournaments.service import Tournaments


class DatabaseFacts(Protocol):
    async def ping(self) -> None:
        """One round trip; raises when the database does not answer."""

    async def status_counts(self) -> dict[str, int]:
        """Rooms by status, plus ``purged``."""

    async def rooms(self, query: RoomQuery) -> IndexPage:
        """A page of every room in the database, newest activity first (the admin's
        list: ``in_memory`` and ``live`` left for the caller to fill)."""


@dataclass(slots=True, eq=False)
class Edge:
    """What exists from the moment the app is made (its middleware and limits use it)."""

    settings: Settings
    metrics: Metrics
    bot_load: BotLoad
    sockets: SocketGuard
    http_limits: HttpLimits
    public_list_limit: KeyedRateLimit
    admin_gate: AdminGate


@dataclass(slots=True, eq=False)
class Services:
    """The edge, and what the server builds once it starts (its lifespan)."""

    edge: Edge
    rooms: RoomService
    chat: Chat
    public_rooms: PublicRooms
    archive: Archive
    reviews: Reviews
    audience: Audience
    players: Players
    database: DatabaseFacts
    ratings: Ratings
    profiles: Profiles
    pairing: Pairing
    accounts: Accounts
    tokens: AccessTokens
    """Personal access tokens and bot accounts (issue 51)."""
    coach: Coach
    daily: Daily
    """The deal of the day (issue 32)."""
    solo: Solo
    """"Play this deal yourself" on a finished deal (issue 32)."""
    ladder: Ladder
    """The bot ladder's standings and published packs (issue 51)."""
    botplay: BotPlay
    """The bot event stream, seating bots by name, challenges between bots (issue 51)."""
    clubs: Clubs
    """Clubs: members, roles, the invite link and join requests (issue 49)."""
    tournaments: Tournaments
    """Swiss and duplicate events played in the rooms (issue 49)."""
    push: PushService | None = None
    """Web Push (issue 32); None when the host switched it off (PUSH=false)."""
    notices: NoticeChoices | None = None
    """Which events each player wants told (issue 32)."""
    email: EmailNotices | None = None
    """Email confirmation and the daily digest (issue 32); None without SMTP_HOST."""
    oidc: OidcFlow | None = None
    """Sign-in through the host's OpenID Connect provider; None when none is configured."""

    @property
    def settings(self) -> Settings:
        return self.edge.settings

    @property
    def metrics(self) -> Metrics:
        return self.edge.metrics

    @property
    def sockets(self) -> SocketGuard:
        return self.edge.sockets

    @property
    def http_limits(self) -> HttpLimits:
        return self.edge.http_limits
