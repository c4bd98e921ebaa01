"""Who is looking for a game: a browser's player key, or a signed-in account.

Pairing works for both.  An anonymous player is known by the key its browser keeps
(``X-Player-Key``, app/players/players.py: only its hash is stored); a signed-in
person by their account (app/accounts/, whose session the API reads).  One ticket
per identity: an account queued on two devices is one person in the queue.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.players.players import player_hash

ACCOUNT = "a:"
KEY = "p:"


@dataclass(frozen=True, slots=True)
class Seeker:
    """Who is looking for a game: a browser's player key or a signed-in account."""

    identity: str
    """``p:`` + the player key's hash, or ``a:`` + the account's id: one ticket each."""
    name: str
    player_hash: str | None = None
    """The player key's hash, to list the seat in that browser's "My games"."""
    account_id: str | None = None


def key_seeker(key: str, name: str) -> Seeker:
    hashed = player_hash(key)
    return Seeker(identity=f"{KEY}{hashed}", name=name, player_hash=hashed)


def account_seeker(account_id: str, username: str, name: str | None, key: str | None) -> Seeker:
    """An account's seeker: its username unless it chose a name for the table; the
    browser's key (if sent) also lists the seat in that browser's "My games"."""
    return Seeker(
        identity=f"{ACCOUNT}{account_id}",
        name=name or username,
        player_hash=player_hash(key) if key else None,
        account_id=account_id,
    )


def account_of(identity: str) -> str | None:
    """The account id of a stored ticket's identity, None for a player key's."""
    return identity.removeprefix(ACCOUNT) if identity.startswith(ACCOUNT) else None
