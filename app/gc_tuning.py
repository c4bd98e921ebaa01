"""Keep the cyclic garbage collector's pauses out of the play-to-patch latency.

A server process holds a few hundred long-lived container objects per
WebSocket connection (the ASGI stack's coroutines, the protocol's buffers) and
the views of every room.  With CPython's default thresholds a full collection
runs every few seconds under load and walks all of them: about 0.25 s with
1,250 connections, during which no patch goes out (bench/load.py showed it as
the whole p99).  Almost every object here dies by reference counting, so the
young generations can be collected far less often without memory growth, and
the oldest generation only rarely.

``tune`` also freezes what exists when it is called, just before the server
starts (modules, SQLAlchemy's and FastAPI's machinery): it lives as long as
the process and need never be scanned again.  Rooms are loaded later, so
they stay collectable when they leave memory.
"""

from __future__ import annotations

import ctypes
import gc

DEFAULT_THRESHOLDS = "200000,20,100"


def parse_thresholds(text: str) -> tuple[int, int, int] | None:
    """``"g0,g1,g2"`` -> thresholds; empty -> None (keep CPython's own)."""
    text = text.strip()
    if not text:
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(
            f"GC_THRESHOLDS must be three positive integers like "
            f"{DEFAULT_THRESHOLDS!r}, or empty; got {text!r}"
        )
    g0, g1, g2 = map(int, parts)
    return g0, g1, g2


def tune(thresholds: tuple[int, int, int] | None) -> None:
    """Freeze the objects made so far and set the collection thresholds."""
    if thresholds is None:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def release_memory() -> None:
    """Rooms left memory: free what they left and give the heap back to the system.

    The raised thresholds make full collections rare, so the rooms' reference
    cycles (tasks, runtimes) would wait for one; and glibc keeps freed memory
    in the process unless asked to return it (``malloc_trim``), so the server's
    resident size would never show that the rooms are gone.  Called only when
    rooms were evicted, at most once a heartbeat.
    """
    gc.collect()
    _malloc_trim()


def _malloc_trim() -> None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to ask
        pass
