"""Argon2id password hashes through argon2-cffi, off the event loop.

argon2-cffi's defaults are RFC 9106's second recommended setting (Argon2id, 64 MiB,
3 passes, 4 lanes): about 50 ms of CPU per hash here, enough to make offline
guessing slow.  Each hash runs in a worker thread so the loop keeps serving moves,
and at most ``CONCURRENT`` at a time, so that a burst of sign-ins cannot take more
than that many times 64 MiB of memory.
"""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

CONCURRENT = 2
_hasher = PasswordHasher()
_slots: asyncio.Semaphore | None = None
_DUMMY = _hasher.hash("a password nobody has, to spend the same time")


def _semaphore() -> asyncio.Semaphore:
    global _slots
    if _slots is None:
        _slots = asyncio.Semaphore(CONCURRENT)
    return _slots


async def hash_password(password: str) -> str:
    async with _semaphore():
        return await asyncio.to_thread(_hasher.hash, password)


def _verify(encoded: str | None, password: str) -> bool:
    try:
        return _hasher.verify(encoded or _DUMMY, password) and encoded is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(encoded: str | None, password: str) -> bool:
    """Whether ``password`` matches ``encoded``; with no hash (no such account, or one
    without a password) a dummy hash is checked all the same, so that the answer's
    timing does not tell which names exist."""
    async with _semaphore():
        return await asyncio.to_thread(_verify, encoded, password)
