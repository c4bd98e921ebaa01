"""What the accounts keep, as a Protocol: ``app/db/accounts.py`` implements it in SQL.

Every write is one transaction.  A name already taken raises ``Conflict`` (the
rooms' exception for a unique constraint that failed: the database decides, so two
processes registering the same name at once cannot both win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as stored; ``username`` is None once the account was deleted."""

    id: str
    username: str | None
    password_hash: str | None
    created_ms: int
    bot_since_ms: int | None = None
    """When it became a bot account (issue 51); None for a person's."""


@dataclass(frozen=True, slots=True)
class Failures:
    """Failed sign-ins of one scope within the window: how many, and the oldest's time."""

    count: int
    oldest_ms: int


class SessionExport(TypedDict):
    created_ms: int
    expires_ms: int


class IdentityExport(TypedDict):
    issuer: str
    subject: str
    created_ms: int


class KeyExport(TypedDict):
    player_hash: str
    linked_ms: int


class TokenExport(TypedDict):
    """A personal access token as the export shows it: never the token, nor its hash."""

    id: str
    name: str
    scopes: list[str]
    created_ms: int
    last_used_ms: int | None
    revoked_ms: int | None


class StoredData(TypedDict):
    """Everything stored about an account, for its export (games come from the archive)."""

    sessions: list[SessionExport]
    identities: list[IdentityExport]
    player_keys: list[KeyExport]
    access_tokens: list[TokenExport]


class AccountStore(Protocol):
    async def create_account(
        self,
        account_id: str,
        username: str,
        username_key: str,
        password_hash: str | None,
        now_ms: int,
        identity: tuple[str, str] | None = None,
    ) -> None:
        """A new account (with its external identity, if given), stored with its name's
        skeleton (``app.names.name_key(username)``); Conflict if the name, its skeleton
        (a look-alike made at the same moment) or the identity is taken."""

    async def account_by_name(self, username_key: str) -> AccountRow | None: ...

    async def account_by_skeleton(self, skeleton: str) -> AccountRow | None:
        """The account whose username's skeleton (app/names.py) is ``skeleton``."""

    async def account_by_identity(self, issuer: str, subject: str) -> AccountRow | None: ...

    async def create_session(
        self, token_hash: str, account_id: str, now_ms: int, expires_ms: int
    ) -> None: ...

    async def session_account(self, token_hash: str, now_ms: int) -> AccountRow | None:
        """The account of an unexpired session, or None."""

    async def delete_session(self, token_hash: str) -> None: ...

    async def delete_sessions(self, account_id: str) -> int:
        """Sign out everywhere: the number of sessions ended."""

    async def link_key(self, account_id: str, player_hash: str, now_ms: int) -> int:
        """The player key is the account's (taken over from any other account): its
        seats not yet held by an account become the account's; returns how many."""

    async def link_seat(self, room_id: str, seat: int, token_hash: str, account_id: str) -> bool:
        """The seat held with this token is the account's; False if no such seat."""

    async def failures(self, scopes: Sequence[str], since_ms: int) -> dict[str, Failures]:
        """Failed sign-ins per scope since ``since_ms`` (scopes without any left out)."""

    async def add_failure(self, scopes: Sequence[str], now_ms: int, forget_before_ms: int) -> None:
        """Count a failed sign-in in every scope; rows older than ``forget_before_ms``
        are dropped on the way."""

    async def clear_failures(self, scope: str) -> None: ...

    async def server_key(self, name: str, made: str, now_ms: int) -> str:
        """The server's secret of this name (``server_keys``, beside the VAPID keys):
        ``made`` is kept if there is none yet; every process reads the same one."""

    async def stored_data(self, account_id: str) -> StoredData: ...

    async def delete_account(self, account_id: str, now_ms: int, seat_name: str) -> None:
        """Scrub the account: name (its key and skeleton too), password, sessions, keys,
        identities and access tokens go; its seats stay with it, renamed ``seat_name`` and unlinked
        from any player key."""
