"""The clubs' settings (CLUBS_OWNED_MAX, CLUBS_JOINED_MAX, CLUB_MEMBERS_MAX,
CLUB_REQUESTS_MAX, CLUB_REQUESTS_PER_ACCOUNT, CLUB_ACTIONS_PER_MINUTE,
CLUB_INVITE_DAYS) made into the service, when the server starts (app/main.py)."""

from __future__ import annotations

from typing import Protocol

from .rules import ClubLimits
from .service import Clubs, ClubSettings
from .store import ClubStore


class ClubConfig(Protocol):
    """The settings the clubs read (app/config.py's ``Settings`` has them)."""

    @property
    def clubs_owned_max(self) -> int: ...
    @property
    def clubs_joined_max(self) -> int: ...
    @property
    def club_members_max(self) -> int: ...
    @property
    def club_requests_max(self) -> int: ...
    @property
    def club_requests_per_account(self) -> int: ...
    @property
    def club_actions_per_minute(self) -> float: ...
    @property
    def club_invite_days(self) -> float: ...


def build_clubs(store: ClubStore, settings: ClubConfig) -> Clubs:
    limits = ClubLimits(
        owned=settings.clubs_owned_max,
        joined=settings.clubs_joined_max,
        members=settings.club_members_max,
        requests_per_club=settings.club_requests_max,
        requests_per_account=settings.club_requests_per_account,
        invite_ms=int(settings.club_invite_days * 86_400_000),
    )
    return Clubs(store, ClubSettings(limits, settings.club_actions_per_minute))
