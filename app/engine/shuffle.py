"""Shuffles and the fairness commitment (ARCHITECTURE.md, Fairness).

A deal's pack is a pure function of its seed, so that anyone given the seed
after the deal can recompute the pack and replay it.  The shuffle does not
use ``random`` (whose algorithm Python does not promise to keep) but a
Fisher-Yates shuffle driven by SHA-256 in counter mode, with rejection
sampling so every permutation is equally likely.  It is spelled out in
docs/fairness.md so that other languages can check it.

Real games draw the seed from ``secrets``; tests and simulations pass one.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from .cards import Card, pack

SEED_BYTES = 16  # 128 bits


def new_seed() -> str:
    """A fresh seed from the operating system's CSPRNG, as 32 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """SHA-256 of the seed (UTF-8), shown to every player before the deal starts."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class _Stream:
    """Deterministic bytes: SHA-256(seed || ":" || counter) blocks, concatenated."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8")
        self._counter = 0
        self._buf = b""

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) for n <= 2**32, by rejection sampling."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            if len(self._buf) < 4:
                self._buf += hashlib.sha256(
                    self._seed + b":" + str(self._counter).encode()
                ).digest()
                self._counter += 1
            x = int.from_bytes(self._buf[:4], "big")
            self._buf = self._buf[4:]
            if x < limit:
                return x % n


def shuffle(cards: Sequence[Card], seed: str) -> list[Card]:
    """Fisher-Yates over a copy of ``cards``: for i from the end, swap with j <= i."""
    out = list(cards)
    stream = _Stream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_pack(seed: str, copies: int = 2) -> list[Card]:
    """The pack of a deal with this seed, top card first."""
    return shuffle(pack(copies), seed)
