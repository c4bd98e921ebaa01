"""Bots that play Krypkasino from what their seat may see.

``choose_move(view, level)`` is the one entry point: ``view`` is the dict of
``app.engine.views.match_view`` for the bot's own seat (docs/protocol.md,
"The view"), and the result is always one of ``view["legal"]``.  A bot never
sees anything else: no other hand, no stock order, no engine object.

Levels (docs/bots.md):

* ``random``: a uniformly random legal move;
* ``greedy``: a one-ply heuristic (``greedy.py``): points taken, sweeps made or
  left for the next player, point cards left in hand and on the table;
* ``strong``: determinized Monte Carlo search (``strong.py``): the unseen cards
  are dealt at random consistently with the view, every candidate move is
  played out with a fast policy in the same sampled worlds, and the move with
  the best mean result for the bot's side wins, within ``budget_s`` seconds.

It is a plain synchronous CPU function; the server runs it in a worker.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("random", "greedy", "strong")


def choose_move(
    view: Mapping[str, Any], level: str, *, rng: random.Random | None = None, budget_s: float = 0.5
) -> dict[str, Any]:
    """One move of ``view["legal"]`` (``{"card", "take"}``) chosen by the bot ``level``."""
    legal = view.get("legal") or []
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = rng if rng is not None else random.Random()
    if len(legal) == 1:
        return _copy(legal[0])
    if level == "random":
        return _copy(rng.choice(legal))
    try:
        if level == "greedy":
            from . import greedy

            chosen = greedy.choose(view, rng)
        else:
            from . import strong

            chosen = strong.choose(view, rng, budget_s=budget_s)
    except Exception:  # a bot must always move: never let a heuristic bug stop a game
        log.exception("bot level %s failed; falling back to a random legal move", level)
        chosen = rng.choice(legal)
    if not any(
        m["card"] == chosen["card"] and list(m["take"]) == list(chosen["take"]) for m in legal
    ):
        log.error("bot level %s chose an illegal move %r; playing a random one", level, chosen)
        chosen = rng.choice(legal)
    return _copy(chosen)


def _copy(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"card": move["card"], "take": list(move["take"])}
