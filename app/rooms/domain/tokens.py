"""Room codes: the short codes people type to find a room.

Seat tokens, their hashes and what is kept of a creator's address are shared with
the features (``app/core/tokens.py``)."""

from __future__ import annotations

import secrets
import string

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "01OIL")
"""Room codes avoid letters and digits that read alike (0/O, 1/I/L)."""
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
