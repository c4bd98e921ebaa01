"""How long a browser test waits for what it waits on, at most.

Every wait ends on the event it waits for (a selector, a function of the page's
state); the bound only ends a test that is failing.  It allows for a machine far
busier than one core: fresh-clone runs with one core kept busy and the Docker
tests building images beside the browsers saw pages that did come take over 30 s
to boot (a new context loads the client's 73 modules afresh), so the bound is a
minute.  A passing test takes no longer for it."""

from __future__ import annotations

from typing import Any

WAIT_MS = 60_000

SETTLED_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Evaluated, it resolves once the page has drawn two frames: a layout changed by a
resize or a new setting has been applied."""

STILL_JS = """(frames) => new Promise((done) => {
    const sel = '[data-testid=table] li, [data-testid=hand] li, [data-testid=log], '
              + '[data-testid=review-pane], .game-grid > .board';
    const boxes = () => [...document.querySelectorAll(sel)]
        .map((e) => { const r = e.getBoundingClientRect();
                      return `${r.left},${r.top},${r.width},${r.height}`; })
        .concat([document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight])
        .join(';');
    let last = boxes(), still = 0, left = 600;
    const tick = () => {
        const now = boxes();
        if (now === last) still++; else { still = 0; last = now; }
        if (still >= frames || --left <= 0) done(still >= frames);
        else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
})"""
"""Resolves once the table's and the hand's cards, the log, the review's pane, the board
and the page's scroll size have kept their boxes for ``frames`` frames in a row (false
after 600 frames without).  The table's and the hand's fit are ResizeObserver answers
(static/js/ui/tablefit.js, handfit.js) that re-render the room, which may move the
other's box and be measured again, a frame each; two frames after a change are not
always enough on a loaded machine.  Waiting here makes a failure mean that a settled
layout is wrong, not that it was measured too soon: of two loaded-run failures first
read as a measure taken too soon, one was the app's own (the sweep markers held
sideways) and the other, the review's growing page, still fails after this wait
(docs/testing.md, "Session 35")."""


def wait_still(page: Any, frames: int = 3) -> bool:
    """Wait until the page's layout has stood still for ``frames`` frames (``STILL_JS``);
    a layout that never settles is then measured as it is, and fails the test's check."""
    return bool(page.evaluate(STILL_JS, frames))
