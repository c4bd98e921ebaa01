"""How long a browser test waits for what it waits on, at most.

Every wait ends on the event it waits for (a selector, a function of the page's
state); the bound only ends a test that is failing.  It allows for a machine far
busier than one core: fresh-clone runs with one core kept busy and the Docker
tests building images beside the browsers saw pages that did come take over 30 s
to boot (a new context loads the client's 73 modules afresh), so the bound is a
minute.  A passing test takes no longer for it."""

from __future__ import annotations

WAIT_MS = 60_000

SETTLED_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Evaluated, it resolves once the page has drawn two frames: a layout changed by a
resize or a new setting has been applied."""
