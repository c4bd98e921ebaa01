"""Who is looking for a game: a browser's player key, or a signed-in account.

Pairing works for both.  An anonymous player is known by the key its browser keeps
(``X-Player-Key``, app/players/players.py: only its hash is stored); a signed-in
person by their account, read through ``AccountSessions`` so that pairing needs
nothing of how accounts keep their sessions (the accounts feature implements it and
the wiring hands it to ``Pairing.accounts``).  One ticket per identity: an account
queued on two devices is one person in the queue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from app.players.players import player_hash


@dataclass(frozen=True, slots=True)
class Seeker:
    """Who is looking for a game: a browser's player key or a signed-in account."""

    identity: str
    """``p:`` + the player key's hash, or ``a:`` + the account's id: one ticket each."""
    name: str
    player_hash: str | None = None
    """The player key's hash, to list the seat in that browser's "My games"."""
    account_id: str | None = None


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A signed-in account, as pairing needs it."""

    account_id: str
    username: str


class AccountSessions(Protocol):
    async def signed_in(
        self, cookies: Mapping[str, str], headers: Mapping[str, str], changes: bool
    ) -> SignedIn | None:
        """The account whose session these cookies carry, or None.  For a request that
        ``changes`` something (POST, DELETE) the implementation also checks its CSRF
        protection and raises a ``ServiceError`` (403) when that fails."""


def key_seeker(key: str, name: str) -> Seeker:
    hashed = player_hash(key)
    return Seeker(identity=f"p:{hashed}", name=name, player_hash=hashed)


def account_seeker(account: SignedIn, name: str | None, key: str | None) -> Seeker:
    """An account's seeker: its username unless it chose a name for the table; the
    browser's key (if sent) also lists the seat in that browser's "My games"."""
    return Seeker(
        identity=f"a:{account.account_id}",
        name=name or account.username,
        player_hash=player_hash(key) if key else None,
        account_id=account.account_id,
    )
