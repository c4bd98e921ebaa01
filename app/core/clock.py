"""The wall clock every package reads, in the unit rows and messages store it.

Times that are stored or compared across processes (leases, deadlines, claims, a
chat line's ``at``) are Unix milliseconds from this one function, so a test or a
reader has one place to look for "now"; a component that must be driven by a test
takes a ``clock`` argument defaulting to it.
"""

from __future__ import annotations

import time


def now_ms() -> int:
    """Unix time in whole milliseconds."""
    return int(time.time() * 1000)
