"""What the personal access tokens and bot accounts keep, as a Protocol (issue 51):
``app/db/access_tokens.py`` implements it in SQL.

Only a token's hash is stored (``app.core.tokens.hash_token``).  Every write is one
transaction; a store answers for one account at a time, so that no caller can reach
another account's token by its id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .store import AccountRow


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A token as stored (never the token itself)."""

    id: str
    account_id: str
    name: str
    scopes: tuple[str, ...]
    created_ms: int
    last_used_ms: int | None
    revoked_ms: int | None


@dataclass(frozen=True, slots=True)
class BotRow:
    """A bot account, for the public list: its name, since when, and its latest use of
    any of its tokens (None: never used)."""

    username: str
    bot_since_ms: int
    last_used_ms: int | None


class TokenStore(Protocol):
    async def add_token(self, row: TokenRow, token_hash: str, most: int) -> bool:
        """Store a new live token unless the account holds ``most`` live ones already
        (False then, nothing stored): counted and written in one transaction."""

    async def live_tokens(self, account_id: str) -> list[TokenRow]:
        """The account's tokens not revoked, oldest first."""

    async def revoke(self, account_id: str, token_id: str, now_ms: int) -> bool:
        """Revoke the account's live token of this id; False when the account has no
        such live token (unknown, revoked already, or another account's)."""

    async def by_hash(self, token_hash: str) -> tuple[TokenRow, AccountRow] | None:
        """The live token of this hash and its account (not deleted), or None."""

    async def touch(self, token_id: str, now_ms: int, older_than_ms: int) -> None:
        """Set the token's last use to ``now_ms`` if it was last used before
        ``older_than_ms`` (or never): at most one write per interval, whichever
        process serves it."""

    async def make_bot(self, account_id: str, now_ms: int) -> int | None:
        """Make the account a bot account; returns its ``bot_since_ms`` (the first
        one's when it was one already).  None, and nothing changed, when it is no bot
        yet and has played a rated match or holds a seat of a live rated room (read in
        the same transaction as the change)."""

    async def bots(self, limit: int) -> list[BotRow]:
        """Bot accounts not deleted, the latest used first (never used last), at most
        ``limit``."""
