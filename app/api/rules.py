"""The rules as the engine defines them, for clients that must not keep a copy.

* ``GET /api/rules``: the catalogue of rule options.  The lobby builds its form
  from it (which options exist, their ranges, the player counts each allows,
  which exclude each other, the bot levels), and the rules page its variant
  sections (``variants``, each option's ``section``).
* ``GET /api/rules/deal``: the opening deal and the packets of a rule set, per
  player count (what the lobby and the rules page show).
* ``GET /api/tutorial``: the tutorial's deal, every position of it played by
  the engine.

Every fact comes from ``app.engine.facts`` and ``app.engine.tutorial``, i.e. from
the code a deal is played with, so no client keeps a copy of a rule fact.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypedDict

from fastapi import APIRouter, Query, Request, Response

from app.bots import LEVELS
from app.core.json import JsonObject
from app.engine.catalogue_types import DealFacts, RulesCatalogue
from app.engine.errors import RulesError
from app.engine.facts import deal_facts, playable_counts, rules_catalogue, rules_from_query
from app.engine.rules import MAX_PLAYERS, MIN_PLAYERS, RuleValues
from app.engine.tutorial import TutorialAnswer, tutorial

router = APIRouter(prefix="/api", tags=["rules"])


class ServedCatalogue(RulesCatalogue):
    bot_levels: list[str]


class DealShapes(TypedDict):
    rules: RuleValues
    deals: list[DealFacts]


_CATALOGUE: ServedCatalogue = {**rules_catalogue(), "bot_levels": list(LEVELS)}
_CACHE = "public, max-age=300"


@router.get("/rules", response_model=None)
async def rule_options(response: Response) -> ServedCatalogue:
    """Every rule option of RULES.md R7: name, variant, label, type, default, range,
    scope (deal or match), allowed player counts, incompatible options, the rules
    page's section and the text key; the variants in RULES.md order; the picture
    ranks of R2.4; and the bot levels a room may ask for."""
    response.headers["Cache-Control"] = _CACHE
    return _CATALOGUE


@router.get("/rules/deal", response_model=None)
async def deal_shape(
    request: Request,
    response: Response,
    players: int | None = Query(None, ge=MIN_PLAYERS, le=MAX_PLAYERS),
) -> DealShapes:
    """The opening deal and the packets of a rule set (R2.2-R2.6, V2, V7).

    The rule options are query parameters by name (``four_card_deal=true``);
    without ``players``, every player count the rule set can be played with.
    ``{"rules", "deals": [{"players", "cards", "hand", "batches", "table",
    "stock", "packet", "packet_batch", "packets"}]}``.  An unknown option, a bad
    value or a rule set those players cannot play is a 422."""
    options = [(k, v) for k, v in request.query_params.multi_items() if k != "players"]
    rules = rules_from_query(options)
    counts = [players] if players is not None else playable_counts(rules)
    if not counts:
        raise RulesError("no number of players can play these rules together")
    response.headers["Cache-Control"] = _CACHE
    return {"rules": rules.to_dict(), "deals": [deal_facts(rules, n) for n in counts]}


@lru_cache(maxsize=1)
def _tutorial() -> TutorialAnswer:
    return tutorial()


@router.get("/tutorial", response_model=JsonObject)
async def tutorial_deal(response: Response) -> TutorialAnswer:
    """The tutorial's deal, played by the engine: ``{"players", "dealer", "you",
    "rules", "steps", "frames": [{"view", "move"}]}`` (``app.engine.tutorial``)."""
    response.headers["Cache-Control"] = _CACHE
    return _tutorial()
