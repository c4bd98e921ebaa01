"""Counters of the room service, read by the metrics endpoint (app/metrics.py)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ServiceStats:
    """Plain integers, free of any metrics library."""

    moves_committed: int = 0
    conflicts: int = 0
    """Writes that lost the race to another process and were revalidated."""
    write_failures: int = 0
    """Writes the database did not take (unavailable): answered with an error, not lost."""
    recoveries: int = 0
    """Rooms reloaded after a conflict or a failed write."""
    reload_tries: int = 0
    """Reloads a recovery task tried while the database was away (app/rooms/writes.py):
    a test waits on these to see the recovery keep trying, rather than on time."""
    timer_moves: dict[str, int] = field(default_factory=dict)
    """Moves made by this process's timers, by kind (bot, clock, grace)."""
    deadlines_claimed: dict[str, int] = field(default_factory=dict)
    """Rows of ``room_deadlines`` this process claimed and fired, by kind (move, warn24,
    warn1; app/rooms/deadline_poller.py): over all processes, each row once."""
    deadlines_released: int = 0
    """Claimed ``move`` rows given back unfired, to be claimed again: the move failed
    (the database was busy or away) or a vacation moved the deadline out.  Claimed
    minus released minus skipped is the moves the rows made."""
    deadlines_skipped: int = 0
    """Claimed ``move`` rows that found nothing to play: the room had moved on (a
    claim that ran out on a loaded machine and was taken again, another process's
    move caught up with meanwhile, the room gone or closed)."""
