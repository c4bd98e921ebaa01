"""The bots' entry points: ``choose`` for the engine's objects, ``choose_move`` for a view.

``choose(info, legal, level)`` is what the room server calls: ``info`` is the
engine's ``InformationSet`` of the seat to move (``Deal.information_set``) and
``legal`` its legal moves (``Deal.legal``), and the result is one of
``legal``.  A bot never sees anything else: no other hand, no stock order.
Both are frozen values of plain data, so they pickle to a worker process.

``choose_move(view, level)`` is the same for a view dict of docs/protocol.md
(``app.engine.views.match_view`` for the bot's own seat, or its JSON), for
callers that hold a view: it reads the information set and the legal moves
from the view and answers ``{"card", "take"}``.

Levels (docs/bots.md):

* ``random``: a uniformly random legal move;
* ``greedy``: a one-ply heuristic (``greedy.py``): points taken, sweeps made or
  left for the next player, point cards left in hand and on the table;
* ``strong``: determinized Monte Carlo search (``strong.py``): the unseen cards
  are dealt at random consistently with what the seat knows, every candidate
  move is played out with a fast policy in the same sampled worlds, and the
  move with the best mean result for the bot's side wins, within ``budget_s``
  seconds.

Plain synchronous CPU functions; the server runs them in a worker.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict, get_args

from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

from .greedy import choose as greedy_choose
from .strong import choose as strong_choose

log = logging.getLogger(__name__)

BotLevel = Literal["random", "greedy", "strong"]
"""The bot levels a room may ask for (docs/bots.md): the one list of them; the API's
schema, the metrics and the lobby (GET /api/rules) all read it from here."""
LEVELS: tuple[str, ...] = get_args(BotLevel)


def choose(
    info: InformationSet,
    legal: Sequence[LegalMove],
    level: str,
    *,
    rng: random.Random | None = None,
    budget_s: float = 0.5,
    worlds: int | None = None,
) -> LegalMove:
    """One move of ``legal`` chosen by the bot ``level`` for the seat of ``info``.

    ``worlds`` fixes the strong bot's search to that many sampled worlds instead of
    ``budget_s`` seconds: with a seeded ``rng`` the move is then a function of the
    position and the seed alone (a challenge's bots, issue 32).

    Raises ValueError for an unknown level or no legal move (not the seat's
    turn); otherwise always answers one of ``legal``: should a level fail, the
    error is logged and a random legal move is played rather than stall a game.
    """
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = rng if rng is not None else random.Random()
    if len(legal) == 1:
        return legal[0]
    if level == "random":
        return rng.choice(legal)
    try:
        if level == "greedy":
            chosen = greedy_choose(info, legal, rng)
        else:
            chosen = strong_choose(info, legal, rng, budget_s=budget_s, iterations=worlds)
    # A bot must always move: this is the task boundary between a game and a
    # heuristic, and no bug in a heuristic (whatever its exception) may stop a game.
    # It is logged with its traceback, and a random legal move is played instead.
    except Exception:
        log.exception("bot level %s failed; falling back to a random legal move", level)
        chosen = rng.choice(legal)
    if chosen not in legal:
        log.error("bot level %s chose an illegal move %r; playing a random one", level, chosen)
        chosen = rng.choice(legal)
    return chosen


class ChosenMove(TypedDict):
    """A move as a client sends it in ``play`` (docs/protocol.md)."""

    card: str
    take: list[str]


def choose_move(
    view: Mapping[str, Any], level: str, *, rng: random.Random | None = None, budget_s: float = 0.5
) -> ChosenMove:
    """``choose`` for a view dict: one move of ``view["legal"]`` as ``{"card", "take"}``.

    Always a fresh dict.  Raises ValueError as ``choose`` does, and for a
    legal move the engine cannot read (every view the server sends is fine).
    """
    legal = [LegalMove.from_json(m) for m in view.get("legal") or ()]
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    try:
        info = InformationSet.from_view(view)
    # The rest of a view is only what a bot weighs: one the engine cannot read
    # (a key missing or of the wrong type) must still get a move (see ``choose``).
    except (KeyError, TypeError, ValueError):
        log.exception("unreadable view; playing a random legal move")
        chosen = (rng or random.Random()).choice(legal)
    else:
        chosen = choose(info, legal, level, rng=rng, budget_s=budget_s)
    return {"card": chosen.card, "take": list(chosen.take)}
