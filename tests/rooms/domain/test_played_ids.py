"""A room's committed play ids: recent ones answered with their seqs, every older one
still recognised, in memory that grows by 8 bytes a play (app/rooms/played_ids.py)."""

from __future__ import annotations

import sys

from app.rooms.domain.played_ids import RECENT, PlayedIds


def played(n: int) -> PlayedIds:
    ids = PlayedIds()
    for seq in range(1, n + 1):
        ids.add(f"{seq % 4}:play-{seq}", seq)
    return ids


def test_the_newest_plays_are_answered_with_their_seqs() -> None:
    ids = played(5 * RECENT + 7)
    for seq in range(5 * RECENT + 7 - RECENT + 1, 5 * RECENT + 8):
        assert ids.recent_seq(f"{seq % 4}:play-{seq}") == seq
    assert ids.recent_seq("1:play-1") is None, "long gone from the recent ones"
    assert ids.recent_seq("0:never") is None


def test_every_older_play_is_still_recognised_and_nothing_else_is() -> None:
    n = 10_000
    ids = played(n)
    assert len(ids) == n
    older = [seq for seq in range(1, n + 1) if ids.recent_seq(f"{seq % 4}:play-{seq}") is None]
    assert len(older) >= n - 2 * RECENT
    assert all(ids.maybe_older(f"{seq % 4}:play-{seq}") for seq in older), "no play forgotten"
    strangers = [f"{seq % 4}:other-{seq}" for seq in range(20_000)]
    assert not any(ids.maybe_older(key) for key in strangers), "64-bit hashes: no collision"
    assert not any(ids.maybe_older(f"{seq % 4}:play-{seq}") for seq in range(n - RECENT + 1, n))


def test_older_plays_cost_a_few_bytes_each_in_a_few_runs() -> None:
    n = 50_000
    ids = played(n)
    runs = ids._runs
    assert len(runs) <= 2 * (n // RECENT).bit_length(), "runs are merged as they grow"
    assert all(list(r) == sorted(r) for r in runs)
    older_bytes = sum(sys.getsizeof(r) for r in runs)
    assert older_bytes < 10 * n, "about 8 bytes an older play, not a dict entry's 100"
    recent = len(ids._young) + len(ids._old)
    assert RECENT <= recent <= 2 * RECENT
