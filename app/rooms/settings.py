"""The room service's settings, in one place, with the timings derived from them.

Every period the service and its broker keep is derived here from ``lease_seconds``
(``heartbeat``, ``lease_poll``, ``presence_fresh``), so that changing the one
number cannot leave, say, presence reports expiring faster than they are renewed.
``app/main.py`` builds this from the environment (``from_config``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    history: int = 64
    """Patches held per audience for clients that reconnect with last_seq."""
    default_bot_delay: float = 0.8
    """Seconds a bot waits before playing, so people can follow the game."""
    default_grace: float = 60.0
    """Seconds a disconnected player may be gone before a bot plays for them."""
    default_deal_pause: float = 30.0
    """Seconds between deals for everyone to press Continue (app/rooms/pacing.py)."""
    rematch_timeout: float = 120.0
    """Seconds a rematch offer stays open for the others to accept (issue 33); with no
    answer by then it is withdrawn (app/rooms/rematch_expiry.py)."""
    notice_delay: float = 15.0
    """Seconds a turn waits before a player with no page open is told of it (issue 32,
    app/rooms/turn_notice.py): a reload or a moment offline does not ring."""
    turn_notices: bool = True
    """Store the ``turn_changed`` events turn notices follow (PUSH); off, none is
    stored: no notice could follow."""
    bot_budget: float = 0.5
    """Thinking time per move of the strong bot (less when its workers are busy)."""
    bot_workers: int | None = None
    """Processes the strong bot thinks in (None: one per core)."""
    bot_queue: int | None = None
    """Strong moves that may wait for a worker (None: four per worker); past it the
    greedy bot answers at once."""
    seeded_worlds: int = 200
    """Worlds a challenge's strong bot searches per move (issue 32: no time budget)."""
    idle_evict: float = 600.0
    """Seconds a room stays in memory with nothing happening (its events stay stored)."""
    bots_only_delay: float = 1.0
    """Seconds at least between moves of a match that bots alone play (every seat a
    bot, or a bot standing in): such a match runs only while watched, and slowly
    enough to watch (a bot-only room at no delay played 476 moves a second)."""
    max_rooms_per_creator: int = 0
    max_rooms: int = 0
    """Live (waiting or playing) rooms one address may have made, and in all (0: no
    limit).  A client once made 4,500 rooms a minute."""
    day_seconds: float = 86400.0
    """A correspondence room's "day" (issue 32): a day, shorter only in tests
    (DAY_SECONDS); each room keeps the value it was made with."""
    deadline_poll: float = 5.0
    """Seconds at most between two looks at the deadlines that fell due
    (app/rooms/deadline_poller.py)."""
    lease_seconds: float = 15.0
    """How long a process's hold on a room's timers lasts unless renewed
    (app/rooms/leases.py): after a crash, another process takes the room's bots
    and clocks over within this time."""
    heartbeat_max: float = 5.0
    """Seconds at most between housekeeping rounds (``heartbeat``)."""
    retry_first: float = 0.2
    retry_max: float = 5.0
    """Backoff of everything retried while the database is away (timer moves, a
    room's reload after a failed write), doubling from first to max."""

    @property
    def heartbeat(self) -> float:
        """Seconds between the service's housekeeping rounds: renew leases (a third of
        their length, so two renewals may fail before one runs out), refresh presence
        (well inside ``presence_fresh``), catch up rooms other processes moved,
        let idle rooms leave memory."""
        return min(self.heartbeat_max, self.lease_seconds / 3)

    @property
    def presence_fresh(self) -> float:
        """Seconds another process counts this one's presence report (the broker's
        freshness window): six heartbeats, so a live process, which renews its reports
        every heartbeat, never drops out, and a dead one's connections stop counting
        within half a minute."""
        return 6 * self.heartbeat

    @property
    def lease_poll(self) -> float:
        """Seconds between a waiting timer's checks of a lease another process holds
        (answered from memory until that lease could have run out)."""
        return min(1.0, self.lease_seconds / 5)


def from_config(config: Any) -> ServiceSettings:
    """The service's settings from the server's (``app.config.Settings``: read by
    attribute, so that this package does not import the application's config)."""
    return ServiceSettings(
        history=config.patch_history,
        default_bot_delay=config.default_bot_delay,
        default_grace=config.default_grace,
        default_deal_pause=config.default_deal_pause,
        rematch_timeout=config.rematch_timeout,
        notice_delay=config.push_delay,
        turn_notices=config.push,
        bot_budget=config.bot_budget,
        bot_workers=config.bot_workers,
        bot_queue=config.bot_queue,
        seeded_worlds=config.daily_bot_worlds,
        idle_evict=config.room_idle_seconds,
        lease_seconds=config.lease_seconds,
        day_seconds=config.day_seconds,
        deadline_poll=config.deadline_poll_seconds,
        heartbeat_max=config.heartbeat_max,
        bots_only_delay=config.bots_only_delay,
        max_rooms_per_creator=config.max_rooms_per_ip,
        max_rooms=config.max_rooms,
    )
