"""``AccessTokens``: personal access tokens with scopes, and bot accounts (issue 51).

A program (an outside bot, a script) signs in as its account with ``Authorization:
Bearer kkp_...``.  The token is 256 random bits behind a ``kkp_`` prefix (so that it
is recognised in a leaked file and told apart from a seat's token); it is shown once,
in the answer that made it, and only its hash is stored, so a copy of the database
signs nobody in.

Scopes: ``bot:play`` (everything a bot does: make and join rooms, play; reading too)
and ``read`` (GET requests only).  ``bot:play`` is for bot accounts alone: an account
becomes one by ``POST /api/me/bot``, for good, and only if it never played a rated
match (lichess's rule: a bot's games never move people's ratings).

Each token's last use is written at most once per USE_WRITE_MS: a bot polling every
second does not write a row a second.  Revocation is read on every request (no
process keeps a token in memory), so a revoked token is refused by every process at
once.  The refusals are AccountError (status, code, message), answered as JSON by
app/api/accounts.py.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.clock import now_ms
from app.core.errors import Unavailable, unavailable
from app.core.tokens import hash_token

from .service import Account, AccountError
from .token_store import TokenRow, TokenStore

PREFIX = "kkp_"
BOT_PLAY = "bot:play"
READ = "read"
SCOPES = (BOT_PLAY, READ)
"""Every scope, in the order they are listed."""
MAX_TOKENS = 20
"""Live tokens an account may hold; one more is 409 ``too_many_tokens``."""
NAME_MAX = 60
USE_WRITE_MS = 30_000
"""A token's last use is written at most this often."""
ONLINE_MS = 120_000
"""A bot counts as online when one of its tokens was used this recently."""
BOTS_LISTED = 200
TOKEN_SHAPE = re.compile(r"kkp_[A-Za-z0-9_-]{43}")
"""What ``new_token`` makes: anything else is refused without a look in the database."""

NOT_A_BOT = "not_a_bot_account"
TOO_MANY = "too_many_tokens"
NOT_FOUND = "token_not_found"
BAD_NAME = "bad_token_name"
BAD_SCOPES = "bad_scopes"
HAS_RATED_GAMES = "has_rated_games"


@dataclass(frozen=True, slots=True)
class NewToken:
    """A token just made: ``token`` is shown this once and never again."""

    row: TokenRow
    token: str


@dataclass(frozen=True, slots=True)
class Bearer:
    """Who a request's token signs in: its account, the token's id and its scopes."""

    account: Account
    token_id: str
    scopes: tuple[str, ...]

    def may(self, scope: str) -> bool:
        return scope in self.scopes


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A bot account in the public list."""

    name: str
    bot_since_ms: int
    online: bool


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def token_name(name: str) -> str:
    """A token's name as given, trimmed: 1 to NAME_MAX characters, none of them a
    control or format character (422 ``bad_token_name``)."""
    name = name.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise AccountError(422, BAD_NAME, f"a token's name is 1 to {NAME_MAX} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in name):
        raise AccountError(422, BAD_NAME, "a token's name may not hold control characters")
    return name


def scopes_of(asked: Sequence[str]) -> tuple[str, ...]:
    """The scopes asked for, known and at least one, in SCOPES' order (422 ``bad_scopes``)."""
    unknown = [s for s in asked if s not in SCOPES]
    if unknown or not asked:
        known = ", ".join(SCOPES)
        raise AccountError(
            422, BAD_SCOPES, f"a token needs one or more of the scopes {known}; not {unknown!r}"
        )
    return tuple(s for s in SCOPES if s in asked)


class AccessTokens:
    def __init__(self, store: TokenStore) -> None:
        self.store = store
        self._touched: dict[str, int] = {}
        """Token id -> when this process last wrote its use (so most uses write nothing)."""

    async def create(self, account: Account, name: str, scopes: Sequence[str]) -> NewToken:
        """A new token of the account's: 422 for a bad name or scopes, 403
        ``not_a_bot_account`` for ``bot:play`` on a person's account, 409
        ``too_many_tokens`` past MAX_TOKENS live ones."""
        name, granted = token_name(name), scopes_of(scopes)
        if BOT_PLAY in granted and not account.bot:
            raise AccountError(
                403,
                NOT_A_BOT,
                "a bot:play token is for bot accounts: make this account one first "
                "(POST /api/me/bot), or ask for a read token",
            )
        token = new_token()
        row = TokenRow(secrets.token_hex(12), account.id, name, granted, now_ms(), None, None)
        try:
            added = await self.store.add_token(row, hash_token(token), MAX_TOKENS)
        except Unavailable as exc:
            raise unavailable() from exc
        if not added:
            raise AccountError(
                409,
                TOO_MANY,
                f"an account holds at most {MAX_TOKENS} tokens: revoke one first "
                "(DELETE /api/tokens/{id})",
            )
        return NewToken(row, token)

    async def tokens(self, account: Account) -> list[TokenRow]:
        """The account's live tokens, oldest first."""
        try:
            return await self.store.live_tokens(account.id)
        except Unavailable as exc:
            raise unavailable() from exc

    async def revoke(self, account: Account, token_id: str) -> None:
        """Revoke one of the account's tokens; 404 ``token_not_found`` alike for an
        unknown id, a revoked token and another account's."""
        try:
            done = len(token_id) <= 64 and await self.store.revoke(account.id, token_id, now_ms())
        except Unavailable as exc:
            raise unavailable() from exc
        if not done:
            raise AccountError(404, NOT_FOUND, "you have no live token of this id")
        self._touched.pop(token_id, None)

    async def authenticate(self, token: str) -> Bearer | None:
        """The account a presented token signs in, or None for anything but a live
        token of an account that exists.  Records the use (at most once per
        USE_WRITE_MS per token, in every process together)."""
        if TOKEN_SHAPE.fullmatch(token) is None:
            return None
        try:
            found = await self.store.by_hash(hash_token(token))
            if found is None:
                return None
            row, owner = found
            await self._used(row.id)
        except Unavailable as exc:
            raise unavailable() from exc
        assert owner.username is not None  # a deleted account's tokens are never found
        account = Account(owner.id, owner.username, owner.created_ms, owner.bot_since_ms)
        return Bearer(account, row.id, row.scopes)

    async def touch(self, token_id: str) -> None:
        """Record a use of the token without a request (an open bot stream keeps its bot
        online so), at most once per USE_WRITE_MS as every use."""
        try:
            await self._used(token_id)
        except Unavailable:
            pass  # the next look writes it

    async def _used(self, token_id: str) -> None:
        now = now_ms()
        if now - self._touched.get(token_id, -USE_WRITE_MS) < USE_WRITE_MS:
            return
        if len(self._touched) > 10_000:  # a bounded memory of recent writes
            self._touched.clear()
        self._touched[token_id] = now
        await self.store.touch(token_id, now, now - USE_WRITE_MS)

    async def make_bot(self, account: Account) -> int:
        """Make the account a bot account, for good; its ``bot_since_ms``.  Once a bot,
        asking again answers the same.  409 ``has_rated_games`` for an account that
        played a rated match (or sits in a live rated room)."""
        if account.bot_since_ms is not None:
            return account.bot_since_ms
        try:
            since = await self.store.make_bot(account.id, now_ms())
        except Unavailable as exc:
            raise unavailable() from exc
        if since is None:
            raise AccountError(
                409,
                HAS_RATED_GAMES,
                "an account that played rated games cannot become a bot account: "
                "make a new account for the bot",
            )
        return since

    async def bots(self) -> list[BotEntry]:
        """The bot accounts, those online first (a token used within ONLINE_MS), at most
        BOTS_LISTED."""
        try:
            rows = await self.store.bots(BOTS_LISTED)
        except Unavailable as exc:
            raise unavailable() from exc
        since = now_ms() - ONLINE_MS
        entries = [
            BotEntry(
                r.username, r.bot_since_ms, r.last_used_ms is not None and r.last_used_ms >= since
            )
            for r in rows
        ]
        return sorted(entries, key=lambda e: not e.online)  # stable: latest used first
