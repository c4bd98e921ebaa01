"""Who plays on the ladder, and the one seam every kind of player goes through.

An entrant is a built-in bot level (``level``: a fixed anchor of the scale) or an
outside bot (``outside``: a bot account connected over the network, named by its
account id).  Levels are played here, in-process; an outside bot's packs are played
in the server's rooms, where it plays over its connection (app/ladder/rooms.py), so
``seat_player`` refuses it (docs/bots.md, "The bot ladder").

Whatever the kind, a seat is played through ``SeatPlayer``: a move chosen from the
seat's information set and its legal moves, nothing else (no other hand, no stock
order), the same two values a room's bot is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from app.bots.levels import LEVELS, choose
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

EntrantKind = Literal["level", "outside"]
KINDS: tuple[EntrantKind, ...] = ("level", "outside")
OUTSIDE_PREFIX = "outside:"


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of the ladder: a bot level, or (later) an outside bot's account."""

    kind: EntrantKind
    name: str
    """The level (``strong``), or an outside bot's account id."""

    @property
    def id(self) -> str:
        """What the results name it by: the level itself, ``outside:<account id>``."""
        return self.name if self.kind == "level" else OUTSIDE_PREFIX + self.name

    @classmethod
    def level(cls, name: str) -> Entrant:
        if name not in LEVELS:
            raise ValueError(f"unknown bot level {name!r}; choose from {', '.join(LEVELS)}")
        return cls("level", name)

    @classmethod
    def from_id(cls, entrant_id: str) -> Entrant:
        """The entrant an id names (``Entrant.id`` read back)."""
        if entrant_id.startswith(OUTSIDE_PREFIX):
            account = entrant_id.removeprefix(OUTSIDE_PREFIX)
            if not account:
                raise ValueError("an outside entrant names its account id")
            return cls("outside", account)
        return cls.level(entrant_id)


def level_entrants(text: str | None) -> tuple[Entrant, ...]:
    """LADDER_ENTRANTS ("random,greedy,strong"; empty: every level) as entrants, each
    once, at least two of them."""
    names = [n.strip() for n in (text or "").split(",") if n.strip()] or list(LEVELS)
    if len(set(names)) != len(names):
        raise ValueError("name each ladder entrant once")
    entrants = tuple(Entrant.from_id(n) for n in names)
    if len(entrants) < 2:
        raise ValueError("a ladder needs at least two entrants")
    return entrants


class SeatPlayer(Protocol):
    """Whoever plays a seat of a ladder deal: one of ``legal`` from the seat's
    information set.  The seam for outside bots (a driver asking a connected bot)."""

    def choose(self, info: InformationSet, legal: Sequence[LegalMove]) -> LegalMove: ...


@dataclass(slots=True)
class LevelPlayer:
    """A built-in level, its strong search fixed to ``worlds`` sampled worlds so that a
    pack's moves follow from its seed alone, however loaded the machine is."""

    level: str
    rng: random.Random
    worlds: int

    def choose(self, info: InformationSet, legal: Sequence[LegalMove]) -> LegalMove:
        return choose(info, legal, self.level, rng=self.rng, worlds=self.worlds)


def seat_player(entrant: Entrant, seed: str, deal: int, seat: int, worlds: int) -> SeatPlayer:
    """The player of ``entrant`` at ``seat`` of deal ``deal`` of the pack ``seed``: its
    randomness drawn from those, so that the pack replays move for move."""
    if entrant.kind == "outside":
        raise ValueError("outside bots do not play on the ladder yet")
    return LevelPlayer(entrant.name, random.Random(f"ladder:{seed}:{deal}:{seat}"), worlds)
