"""Dependency aliases: what a handler is handed, read from the one services object.

``app.state.services`` (app/services.py) is read here and nowhere else in the API;
each alias gives a handler the one part it needs, so handlers stay a few lines
long and say in their signature what they use.  They work for HTTP routes and the
WebSocket endpoint alike (both are an ``HTTPConnection``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.coach.service import Coach
from app.config import Settings
from app.daily.service import Daily
from app.daily.solo import Solo
from app.limits.clients import client_key
from app.metrics import Metrics
from app.pairing.queue import Pairing
from app.players.players import Players
from app.ratings.profiles import Profiles
from app.ratings.ratings import Ratings
from app.review.archive import Archive
from app.review.review import Reviews
from app.rooms.service import RoomService
from app.services import Services
from app.social.chat import Chat
from app.social.public_rooms import PublicRooms


def get_services(conn: HTTPConnection) -> Services:
    services: Services = conn.app.state.services
    return services


def client_of(conn: HTTPConnection) -> str:
    """Whom the per-client limits count this request or socket against: its address,
    or its IPv6 network of IPV6_PREFIX bits (app/limits/clients.py)."""
    return client_key(conn.scope, get_services(conn).settings.ipv6_prefix)


ServicesDep = Annotated[Services, Depends(get_services)]


def _rooms(conn: HTTPConnection) -> RoomService:
    return get_services(conn).rooms


def _players(conn: HTTPConnection) -> Players:
    return get_services(conn).players


def _archive(conn: HTTPConnection) -> Archive:
    return get_services(conn).archive


def _reviews(conn: HTTPConnection) -> Reviews:
    return get_services(conn).reviews


def _chat(conn: HTTPConnection) -> Chat:
    return get_services(conn).chat


def _public_rooms(conn: HTTPConnection) -> PublicRooms:
    return get_services(conn).public_rooms


def _ratings(conn: HTTPConnection) -> Ratings:
    return get_services(conn).ratings


def _profiles(conn: HTTPConnection) -> Profiles:
    return get_services(conn).profiles


def _pairing(conn: HTTPConnection) -> Pairing:
    return get_services(conn).pairing


def _coach(conn: HTTPConnection) -> Coach:
    return get_services(conn).coach


def _daily(conn: HTTPConnection) -> Daily:
    return get_services(conn).daily


def _solo(conn: HTTPConnection) -> Solo:
    return get_services(conn).solo


def _settings(conn: HTTPConnection) -> Settings:
    return get_services(conn).settings


def _metrics(conn: HTTPConnection) -> Metrics:
    return get_services(conn).metrics


ServiceDep = Annotated[RoomService, Depends(_rooms)]
PlayersDep = Annotated[Players, Depends(_players)]
ArchiveDep = Annotated[Archive, Depends(_archive)]
ReviewsDep = Annotated[Reviews, Depends(_reviews)]
ChatDep = Annotated[Chat, Depends(_chat)]
PublicRoomsDep = Annotated[PublicRooms, Depends(_public_rooms)]
RatingsDep = Annotated[Ratings, Depends(_ratings)]
ProfilesDep = Annotated[Profiles, Depends(_profiles)]
PairingDep = Annotated[Pairing, Depends(_pairing)]
CoachDep = Annotated[Coach, Depends(_coach)]
DailyDep = Annotated[Daily, Depends(_daily)]
SoloDep = Annotated[Solo, Depends(_solo)]
SettingsDep = Annotated[Settings, Depends(_settings)]
MetricsDep = Annotated[Metrics, Depends(_metrics)]
