"""The secrets of rooms: seat tokens, room codes, and what is kept of a creator."""

from __future__ import annotations

import hashlib
import secrets
import string

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "01OIL")
"""Room codes avoid letters and digits that read alike (0/O, 1/I/L)."""
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A seat's secret: whoever holds it plays the seat."""
    return secrets.token_urlsafe(24)  # 192 random bits


def hash_token(token: str) -> str:
    """What the database keeps of a token: it never stores the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def creator_key(address: str) -> str:
    """What is stored of the address a room was made from: enough to count its rooms."""
    return hashlib.sha256(b"krypkasino-room-creator:" + address.encode()).hexdigest()[:32]
