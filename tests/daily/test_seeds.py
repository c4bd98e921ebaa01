"""What a day's seed decides (app/daily/seeds.py): the pack's seed, the dealer and the
bots' seed are functions of it, apart from one another and from the seed itself; the
day is the UTC date, movable by whole days (tests)."""

from __future__ import annotations

from datetime import UTC, datetime

from app.daily import seeds
from app.engine.shuffle import commitment


def test_the_derived_seeds_are_fixed_by_the_day_seed_and_reveal_nothing_of_it() -> None:
    s = "0123456789abcdef0123456789abcdef"
    assert seeds.pack_seed(s) == seeds.pack_seed(s) and len(seeds.pack_seed(s)) == 32
    assert len({s, seeds.pack_seed(s), seeds.bot_seed(s), commitment(s)}) == 4
    assert seeds.pack_seed(s) != seeds.pack_seed(s[::-1])
    assert all(0 <= seeds.dealer(s, n) < n for n in range(2, 7))


def test_the_day_is_the_utc_date_shifted_by_whole_days() -> None:
    late = datetime(2026, 12, 4, 23, 59, tzinfo=UTC)
    assert seeds.utc_day(0, late) == "2026-12-04"
    assert seeds.utc_day(1, late) == "2026-12-05"
    assert seeds.utc_day(-4, late) == "2026-11-30"


def test_only_a_real_date_is_a_day() -> None:
    assert seeds.parse_day("2026-12-04") == "2026-12-04"
    for bad in ("2026-13-01", "2026-2-1", "yesterday", "2026-02-30"):
        assert seeds.parse_day(bad) is None
