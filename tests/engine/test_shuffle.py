"""Shuffles and the fairness commitment: a deal's pack is a function of its seed."""

from __future__ import annotations

import hashlib
from collections import Counter

from app.engine.cards import pack
from app.engine.shuffle import commitment, new_seed, shuffle, shuffled_pack


def test_the_same_seed_gives_the_same_pack():
    assert shuffled_pack("seed-1") == shuffled_pack("seed-1")
    assert shuffled_pack("abc", copies=1) == shuffled_pack("abc", copies=1)


def test_different_seeds_give_different_packs():
    packs = {tuple(shuffled_pack(f"seed-{i}")) for i in range(20)}
    assert len(packs) == 20


def test_the_pack_is_complete():
    """R1.1: every code twice (V2: once), nothing else."""
    assert Counter(shuffled_pack("x")) == Counter(pack(2))
    assert Counter(shuffled_pack("x", copies=1)) == Counter(pack(1))


def test_the_shuffle_actually_shuffles_and_leaves_its_input_alone():
    cards = pack(2)
    out = shuffle(cards, "seed")
    assert cards == pack(2)
    assert out != cards


def test_the_commitment_is_the_sha256_of_the_seed():
    seed = "0123456789abcdef0123456789abcdef"
    assert commitment(seed) == hashlib.sha256(seed.encode("utf-8")).hexdigest()
    assert commitment("a") != commitment("b")


def test_new_seeds_are_128_bit_hex_and_fresh():
    seeds = {new_seed() for _ in range(10)}
    assert len(seeds) == 10
    for seed in seeds:
        assert len(seed) == 32
        int(seed, 16)


def _reference_shuffle(cards: list, seed: str) -> list:
    """The algorithm as the shuffle module spells it out, written again from the text.

    Bytes: SHA-256(seed || ":" || counter) blocks, counter 0, 1, ...; each draw
    takes the next 4 bytes big-endian and rejects values >= 2^32 - 2^32 mod n;
    Fisher-Yates from the end swaps position i with a draw below i + 1.
    """
    out = list(cards)
    buf = b""
    counter = 0

    def below(n: int) -> int:
        nonlocal buf, counter
        limit = 2**32 - 2**32 % n
        while True:
            if len(buf) < 4:
                buf += hashlib.sha256(seed.encode() + b":" + str(counter).encode()).digest()
                counter += 1
            x, buf = int.from_bytes(buf[:4], "big"), buf[4:]
            if x < limit:
                return x % n

    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


PINNED = ["8H", "5C", "AH", "4C", "4D", "JD", "QH", "6D"]


def test_the_shuffle_follows_its_published_algorithm():
    """Published seeds must replay the same pack forever (fairness: anyone can recompute)."""
    for seed in ("pinned", "0123456789abcdef0123456789abcdef", ""):
        assert shuffled_pack(seed) == _reference_shuffle(pack(2), seed)
    assert shuffled_pack("pinned")[:8] == PINNED
