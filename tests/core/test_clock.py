"""The one wall clock (app/core/clock.py): Unix milliseconds, as rows store them."""

from __future__ import annotations

import time

from app.core.clock import now_ms


def test_now_is_unix_time_in_whole_milliseconds() -> None:
    before = time.time()
    now = now_ms()
    after = time.time()
    assert isinstance(now, int)
    assert int(before * 1000) <= now <= int(after * 1000) + 1
