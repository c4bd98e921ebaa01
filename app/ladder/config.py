"""The ladder's settings (LADDER_PLAYERS, LADDER_RULES, LADDER_ENTRANTS) as a
``LadderConfig``: checked once, when the server or the command starts."""

from __future__ import annotations

from typing import Protocol

from app.engine.rules import rules_from_text

from .entrants import level_entrants
from .rooms import ServerRooms
from .runner import LadderRunner, Run, RunnerSettings
from .schedule import LadderConfig
from .service import Ladder
from .store import LadderStore


def ladder_config(players: int, rules: str | None, entrants: str | None) -> LadderConfig:
    """Raises ValueError (an EngineError for the rules) naming what is wrong."""
    return LadderConfig(players, rules_from_text(rules, players), level_entrants(entrants))


class LadderSettings(Protocol):
    """The settings the ladder reads (app/config.py's ``Settings`` has them)."""

    @property
    def ladder_players(self) -> int: ...
    @property
    def ladder_rules(self) -> str | None: ...
    @property
    def ladder_entrants(self) -> str: ...
    @property
    def ladder_strong_worlds(self) -> int: ...
    @property
    def ladder_packs_per_hour(self) -> float: ...


def build_ladder(
    store: LadderStore,
    run: Run,
    owner: str,
    settings: LadderSettings,
    rooms: ServerRooms | None = None,
) -> Ladder:
    """The ladder on ``store``, its packs played through ``run`` by ``owner`` (an
    outside bot's in ``rooms``: the server's; None, as in the command: not played)."""
    config = ladder_config(settings.ladder_players, settings.ladder_rules, settings.ladder_entrants)
    runner = RunnerSettings(
        worlds=settings.ladder_strong_worlds, packs_per_hour=settings.ladder_packs_per_hour
    )
    return Ladder(store, config, LadderRunner(store, config, run, owner, runner, rooms=rooms))
