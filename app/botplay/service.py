"""``BotPlay``: who may open a bot stream, which bots are online, and the challenges
between bots (issue 51).

Refusals are ``AccountError`` (status, code, message), as the bot accounts' own
(app/accounts/access_tokens.py), answered as JSON by app/api/accounts.py.  The rooms
a challenge makes, and the seat a room's player gives a bot, are made by the API
with the room service's commands (app/api/bot_play.py), as every room is.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from app.accounts.access_tokens import NOT_A_BOT, Bearer
from app.accounts.names import fold
from app.accounts.service import Account, AccountError
from app.core.clock import now_ms
from app.core.errors import Unavailable, unavailable
from app.engine.rules import RuleValues

from .store import BotAccountRow, BotPlayStore, ChallengeRow, ChallengeState
from .stream import STALE_MS, OpenStream, Wakeups

MAX_STREAMS = 2
"""Open streams per bot account, over every process; one more is 429 ``too_many_streams``."""
CHALLENGE_MS = 60_000
"""A challenge not answered within this expires."""
MAX_OPEN_CHALLENGES = 5
MAX_PAIR_CHALLENGES = 1
"""Open challenges a bot may have made, in all and to one opponent."""
NAME_MAX = 24

TOO_MANY_STREAMS = "too_many_streams"
BOT_NOT_FOUND = "bot_not_found"
BOT_OFFLINE = "bot_offline"
CHALLENGE_NOT_FOUND = "challenge_not_found"
TOO_MANY_CHALLENGES = "too_many_challenges"
BAD_CHALLENGE = "bad_challenge"
BOTS_NOT_ALLOWED = "bots_not_allowed"


@dataclass(frozen=True, slots=True)
class NewChallenge:
    opponent: str
    players: int
    rules: RuleValues
    bots: int


def as_account(row: BotAccountRow) -> Account:
    return Account(row.id, row.username, row.created_ms, row.bot_since_ms)


class BotPlay:
    def __init__(
        self,
        store: BotPlayStore,
        touch: Callable[[str], Awaitable[None]],
        closing: Callable[[], bool],
    ) -> None:
        self.store = store
        self.touch = touch
        self.closing = closing
        self.wakeups = Wakeups()

    async def open(self, bearer: Bearer) -> OpenStream:
        """Admit a stream of the token's bot account: 403 ``not_a_bot_account`` for a
        person's, 429 ``too_many_streams`` past MAX_STREAMS open ones."""
        if not bearer.account.bot:
            raise AccountError(403, NOT_A_BOT, "the bot stream is for bot accounts")
        stream_id = secrets.token_hex(12)
        now = now_ms()
        try:
            admitted = await self.store.open_stream(
                stream_id, bearer.account.id, bearer.token_id, now, MAX_STREAMS, now - STALE_MS
            )
        except Unavailable as exc:
            raise unavailable() from exc
        if not admitted:
            raise AccountError(
                429,
                TOO_MANY_STREAMS,
                f"a bot may have {MAX_STREAMS} streams open: close one first",
            )
        return OpenStream(
            stream_id,
            bearer.account.id,
            bearer.token_id,
            self.store,
            self.wakeups,
            self.touch,
            self.closing,
        )

    async def bot_named(self, name: str) -> BotAccountRow:
        """The bot account of this username (any case), online or not; 404
        ``bot_not_found`` for no account, a deleted one or a person's."""
        row = None
        if 0 < len(name) <= NAME_MAX:
            try:
                row = await self.store.account_named(fold(name.strip()))
            except Unavailable as exc:
                raise unavailable() from exc
        if row is None or row.bot_since_ms is None:
            raise AccountError(404, BOT_NOT_FOUND, "no bot account has this name")
        return row

    async def online_bot(self, name: str) -> BotAccountRow:
        """``bot_named``, and 409 ``bot_offline`` unless one of its streams is open."""
        row = await self.bot_named(name)
        try:
            online = await self.store.online(row.id, now_ms() - STALE_MS)
        except Unavailable as exc:
            raise unavailable() from exc
        if not online:
            raise AccountError(
                409, BOT_OFFLINE, "this bot is not online (it has no open event stream)"
            )
        return row

    def wake(self, account_id: str) -> None:
        self.wakeups.wake(account_id)

    def stop(self) -> None:
        """The server stops: every open stream of this process ends at once."""
        self.wakeups.stop()

    async def challenge(self, bearer: Bearer, asked: NewChallenge) -> ChallengeRow:
        """A challenge from the token's bot to an online bot; 422 ``bad_challenge`` to
        itself or for more built-in bots than free seats, 429 ``too_many_challenges``
        past the caps."""
        me = bearer.account
        if not me.bot:
            raise AccountError(403, NOT_A_BOT, "only a bot account challenges bots")
        if not 0 <= asked.bots <= asked.players - 2:
            raise AccountError(
                422, BAD_CHALLENGE, "bots fill at most the seats beside the two challengers"
            )
        opponent = await self.online_bot(asked.opponent)
        if opponent.id == me.id:
            raise AccountError(422, BAD_CHALLENGE, "a bot cannot challenge itself")
        now = now_ms()
        row = ChallengeRow(
            secrets.token_hex(12), me.id, me.username, opponent.id, opponent.username,
            asked.players, asked.rules, asked.bots, now, now + CHALLENGE_MS, "open",
        )  # fmt: skip
        try:
            added = await self.store.add_challenge(row, MAX_OPEN_CHALLENGES, MAX_PAIR_CHALLENGES)
        except Unavailable as exc:
            raise unavailable() from exc
        if not added:
            raise AccountError(
                429,
                TOO_MANY_CHALLENGES,
                f"a bot may have {MAX_OPEN_CHALLENGES} open challenges, "
                f"{MAX_PAIR_CHALLENGES} to one opponent: wait for an answer or withdraw one",
            )
        self.wake(opponent.id)
        return row

    async def answer(
        self,
        bearer: Bearer,
        challenge_id: str,
        answer: ChallengeState,
        before: ChallengeState = "open",
    ) -> ChallengeRow:
        """Accept or decline (the opponent), withdraw (the maker), or take back an
        acceptance whose room could not be made; 404 ``challenge_not_found`` alike for an
        unknown id, one not addressed to (or made by) this bot, and one no longer open."""
        side: Literal["from", "to"] = "from" if answer == "withdrawn" else "to"
        row = None
        if len(challenge_id) <= 32:
            try:
                row = await self.store.move_challenge(
                    challenge_id, bearer.account.id, side, before, answer, now_ms()
                )
            except Unavailable as exc:
                raise unavailable() from exc
        if row is None:
            raise AccountError(
                404, CHALLENGE_NOT_FOUND, "no open challenge of this id is yours to answer"
            )
        self.wake(row.from_account)
        self.wake(row.to_account)
        return row

    async def made_room(self, row: ChallengeRow, room_id: str) -> None:
        try:
            await self.store.set_room(row.id, room_id)
        except Unavailable:
            pass  # the room stands; the challenge just does not name it
