"""Which entrants play the next pack, and where each of them sits.

A pack is one seed (``app.engine.shuffle.new_seed``, from ``secrets``), dealt as the
rooms deal it (``shuffled_pack(seed)``, dealer seat 0), and played once per seating:
``players`` deals, the entrants rotating one seat every deal
(``app.bots.duplicate.seat_of``, as ``krypkasino tournament`` rotates), so that every
entrant of the table plays every hand of the pack.

The table of a pack: with at least as many entrants as seats, each combination of
entrants in turn (the one played least so far first, ties in the configured order);
with fewer, every entrant sits once and the extra seats go round the list, each
entrant in turn holding the extra seat.  A pure function of the packs stored so
far, so two processes asking at once pick the same table (and a lease or the
schedule slot decides who plays it).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.bots.duplicate import seat_of
from app.engine.rules import RuleSet

from .entrants import Entrant

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEALER = 0
"""The dealer of every deal of a pack: the same hands go round the same seats."""

Table = tuple[Entrant, ...]
"""The entrants of a pack, by position (the seat each holds in its first deal)."""


@dataclass(frozen=True, slots=True)
class LadderConfig:
    """The ladder as the host set it: table size, rules and entrants."""

    players: int
    rules: RuleSet
    entrants: tuple[Entrant, ...]

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"LADDER_PLAYERS must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        self.rules.validate_for(self.players)
        if len({e.id for e in self.entrants}) < 2:
            raise ValueError("a ladder needs at least two entrants")


@dataclass(frozen=True, slots=True)
class PackPlan:
    """A pack to play: its seed, table size, rules and entrants by position."""

    seed: str
    players: int
    rules: RuleSet
    table: Table

    def __post_init__(self) -> None:
        if len(self.table) != self.players:
            raise ValueError(f"a table of {self.players} needs {self.players} entrants")

    def seatings(self) -> list[list[str]]:
        """Per deal of the pack, the entrant id at each seat."""
        n = self.players
        out = []
        for rotation in range(n):
            seats = [""] * n
            for position, entrant in enumerate(self.table):
                seats[seat_of(position, rotation, n)] = entrant.id
            out.append(seats)
        return out


def key_of(table: Table) -> tuple[str, ...]:
    """A table as the schedule counts it: its entrants' ids by position."""
    return tuple(e.id for e in table)


def tables(entrants: tuple[Entrant, ...], players: int) -> list[Table]:
    """Every table the schedule goes round, in its order."""
    if len(entrants) >= players:
        return list(itertools.combinations(entrants, players))
    n = len(entrants)
    return [tuple(entrants[(k + j) % n] for j in range(players)) for k in range(n)]


def any_table(table: Table) -> bool:
    return True


def next_table(
    config: LadderConfig,
    played: Mapping[tuple[str, ...], int],
    allowed: Callable[[Table], bool] = any_table,
) -> Table:
    """The table played least so far (``played``: packs per table key), the first of
    the schedule's order among equals, among the ``allowed`` ones (an outside bot
    offline skips its tables: app/ladder/runner.py); ValueError for none."""
    options = [t for t in tables(config.entrants, config.players) if allowed(t)]
    if not options:
        raise ValueError("no ladder table can be played now")
    return min(options, key=lambda t: played.get(key_of(t), 0))


def plan_pack(
    config: LadderConfig,
    played: Mapping[tuple[str, ...], int],
    seed: str,
    allowed: Callable[[Table], bool] = any_table,
) -> PackPlan:
    """The next pack: the next table, on ``seed``."""
    return PackPlan(seed, config.players, config.rules, next_table(config, played, allowed))
