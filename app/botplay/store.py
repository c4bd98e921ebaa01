"""What the bot stream and the challenges keep, as a Protocol: ``app/db/bot_play.py``
implements it in SQL.  Every write is one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from app.engine.rules import RuleValues

ChallengeState = Literal["open", "accepted", "declined", "withdrawn"]


@dataclass(frozen=True, slots=True)
class BotAccountRow:
    """An account found by name: whether it is a bot, and what seating it needs."""

    id: str
    username: str
    created_ms: int
    bot_since_ms: int | None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A live room (waiting or playing) with a seat linked to the bot's account."""

    room_id: str
    seat: int
    code: str


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: str
    from_account: str
    from_name: str
    to_account: str
    to_name: str
    players: int
    rules: RuleValues
    bots: int
    made_ms: int
    expires_ms: int
    state: ChallengeState
    room_id: str | None = None


@dataclass(frozen=True, slots=True)
class Poll:
    """One look at the database for an open stream."""

    token_live: bool
    """The stream's token is neither revoked nor its account deleted."""
    games: list[GameRow]
    challenges: list[ChallengeRow]
    """Open, unexpired challenges addressed to the bot."""


class BotPlayStore(Protocol):
    async def open_stream(
        self, stream_id: str, account_id: str, token_id: str, now_ms: int, most: int, stale_ms: int
    ) -> bool:
        """Record an open stream unless the account holds ``most`` streams seen since
        ``stale_ms`` already (False, nothing stored); older rows are dropped on the way."""

    async def renew_stream(self, stream_id: str, now_ms: int) -> None: ...

    async def close_stream(self, stream_id: str) -> None: ...

    async def online(self, account_id: str, since_ms: int) -> bool:
        """Whether one of the account's streams was seen since ``since_ms``."""

    async def poll(self, account_id: str, token_id: str, now_ms: int) -> Poll: ...

    async def account_named(self, username_key: str) -> BotAccountRow | None:
        """The live account of this folded username, bot or not."""

    async def add_challenge(self, row: ChallengeRow, most_open: int, most_pair: int) -> bool:
        """Store an open challenge unless its maker has ``most_open`` open unexpired ones,
        or ``most_pair`` to the same opponent (False, nothing stored)."""

    async def move_challenge(
        self,
        challenge_id: str,
        account_id: str,
        side: Literal["from", "to"],
        before: ChallengeState,
        after: ChallengeState,
        now_ms: int,
    ) -> ChallengeRow | None:
        """Move a challenge of ``account_id`` (its maker's for ``from``, its opponent's
        for ``to``) from ``before`` to ``after``; an open one only while unexpired.  The
        row as it now is, or None (nothing changed) when no such challenge is."""

    async def set_room(self, challenge_id: str, room_id: str) -> None: ...
