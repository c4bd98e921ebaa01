"""A table's room, made through the room service (the port ``TableRooms``; app/main.py
hands in the room service's calls and the accounts' seat links).

Each table is one room: its first person makes it, the others join it in the
table's order, and the bots take the last seats, as a room seats them; every
person's seat is linked to their account, so that the room's link seats them on any
device where they are signed in (the hello's ``own``).  A duplicate board's room
deals the board's seed with seat 0 dealing, for one deal; the bots' moves are seeded
by the position (a challenge room), so every table's bots answer the same plays
alike.  Tournament play is unaided (no hints, no take-backs), and a room plays on
with nobody connected (the stand-in plays for whoever is away past the grace), so
one absent table never holds up an event.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from app.engine.rules import RuleSet
from app.rooms.domain.options import DealPreset, RoomOptions

from .store import TableToMake

DEALER = 0


class TableRooms(Protocol):
    async def make(self, table: TableToMake) -> str:
        """Make the table's room with its people seated and linked; its id."""


def table_rules(table: TableToMake) -> RuleSet:
    """The event's rules; a duplicate board is one deal (how a match ends changes no
    deal)."""
    rules = table.event.plan.rules
    if table.board_seed is None:
        return rules
    return replace(rules, match_deals=1, match_limit=None, tie_break_deal=False)


def table_options(
    table: TableToMake, grace: float, day_seconds: float, bot_delay: float = 0.8
) -> RoomOptions:
    """The room's options: the event's clock and pace, unaided, the host's grace and
    bots' pace (DEFAULT_GRACE, DEFAULT_BOT_DELAY)."""
    plan, event = table.event.plan, table.event
    preset = None
    if table.board_seed is not None:
        bot_seed = f"tournament:{event.id}:{table.table.stage}"
        preset = DealPreset(table.board_seed, DEALER, bot_seed=bot_seed)
    live = plan.pace == "live"
    return RoomOptions(
        bot_level=plan.bot_level,
        bot_delay=bot_delay,
        turn_clock=plan.turn_clock if live else None,
        grace=grace,
        takeback="off",
        hints=False,
        pace=plan.pace,
        days_per_move=None if live else plan.days_per_move,
        day_seconds=day_seconds,
        preset=preset,
        plays_unattended=live,
        rated=plan.rated,
    )
