"""What every browser context a test made was still waiting for when the test failed.

A loaded run's browser failures were pages that did not come: a wait for the lobby, a
footer or a landmark ran out at 30 s, and at 60 s, on a page whose HTML had loaded.
Each context the session's browser makes is watched (``watch``): the requests it sent
that have not finished, those that failed, and its last console lines.  A failing
browser test's report ends with them (tests/browser/conftest.py), so the next such
failure names the request the page waited on instead of leaving it to be guessed."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

KEPT = 15
"""Console lines and failed requests kept per context."""


@dataclass
class ContextWatch:
    made: float = field(default_factory=time.monotonic)
    pending: dict[int, tuple[str, float]] = field(default_factory=dict)
    failed: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT))
    console: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT))
    errors: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT))
    finished: int = 0

    def report(self, now: float) -> str:
        lines = [f"context made {now - self.made:.1f} s ago; {self.finished} requests finished"]
        for what, since in self.pending.values():
            lines.append(f"  pending {now - since:.1f} s: {what}")
        lines += [f"  failed: {f}" for f in self.failed]
        lines += [f"  console {c}" for c in self.console]
        lines += [f"  page error: {e}" for e in self.errors]
        return "\n".join(lines)


WATCHES: list[ContextWatch] = []
"""Every context of this worker's browser, in the order they were made."""


def watch(ctx: Any) -> Any:
    """Watch ``ctx`` (a Playwright BrowserContext); returns it."""
    w = ContextWatch()

    def sent(r: Any) -> None:
        w.pending[id(r)] = (f"{r.method} {r.url}", time.monotonic())

    def done(r: Any) -> None:
        if w.pending.pop(id(r), None) is not None:
            w.finished += 1

    def failed(r: Any) -> None:
        w.pending.pop(id(r), None)
        w.failed.append(f"{r.method} {r.url}: {r.failure}")

    ctx.on("request", sent)
    ctx.on("requestfinished", done)
    ctx.on("requestfailed", failed)
    ctx.on("console", lambda m: w.console.append(f"{m.type}: {m.text[:300]}"))
    ctx.on("weberror", lambda e: w.errors.append(str(e.error)[:300]))
    WATCHES.append(w)
    return ctx


def watched(browser: Any) -> Any:
    """``browser`` with every context it makes watched."""
    make = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> Any:
        return watch(make(*args, **kwargs))

    browser.new_context = new_context
    return browser
