"""Secrets handed to people, and what is stored of them and of addresses.

A seat's token, a transfer link's token, a session: whoever holds the secret may act,
so the database keeps only its hash (``hash_token``).  An address a room or a pairing
ticket was made from is kept as a keyed hash too (``creator_key``): enough to count its
rooms, never the address.  Shared by the rooms, the players, accounts, pairing and the
deal of the day, which all store them and must hash them the same way.
"""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    """A new secret: whoever holds it plays the seat (or claims the link)."""
    return secrets.token_urlsafe(24)  # 192 random bits


def hash_token(token: str) -> str:
    """What the database keeps of a token: it never stores the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def creator_key(address: str) -> str:
    """What is stored of the address a room was made from: enough to count its rooms."""
    return hashlib.sha256(b"krypkasino-room-creator:" + address.encode()).hexdigest()[:32]
