"""The outside bots the ladder seats (app/ladder/rooms.py's ``BotDirectory``): a bot
account found by its username or id, and whether it has an event stream open now
(the same test as seating a bot by name: a stream seen within STALE_MS)."""

from __future__ import annotations

from sqlalchemy import or_, select

from app.accounts.names import fold
from app.botplay.stream import STALE_MS
from app.core.clock import now_ms
from app.ladder.rooms import OutsideBot

from .botplay_models import BotStreamRow
from .models import Account
from .outage import outages_as_unavailable
from .repository import RoomRepository

NAME_MAX = 64


class LadderBots:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def outside_bot(self, name_or_id: str) -> OutsideBot | None:
        """The bot account of this id or username (any case); None for none, a
        deleted account or a person's."""
        if not 0 < len(name_or_id) <= NAME_MAX:
            return None
        async with self.repo.sessions() as s:
            a = await s.scalar(
                select(Account).where(
                    or_(Account.id == name_or_id, Account.username_key == fold(name_or_id)),
                    Account.deleted_ms.is_(None),
                    Account.bot_since_ms.is_not(None),
                )
            )
        if a is None or a.username is None:
            return None
        return OutsideBot(a.id, a.username)

    @outages_as_unavailable
    async def online(self, account_id: str) -> bool:
        async with self.repo.sessions() as s:
            found = await s.scalar(
                select(BotStreamRow.id)
                .where(
                    BotStreamRow.account_id == account_id,
                    BotStreamRow.seen_ms >= now_ms() - STALE_MS,
                )
                .limit(1)
            )
        return found is not None
