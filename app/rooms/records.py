"""Deal records: a finished deal as a replayable scenario (scenarios/FORMAT.md)."""

from __future__ import annotations

from typing import Any

from app.engine.deal import Deal
from app.engine.rules import RuleSet

from .replay import award

SCENARIO_RULES = ("partnership", "single_pack", "nordic", "no_forced_sweep", "bordstabbe",
                  "strict_capture", "four_card_deal")
"""The rule options the scenario format knows; match length (V8) is not part of a deal."""


def deal_record(stored: dict[str, Any]) -> dict[str, Any]:
    """Turn the stored deal (pack, dealer, moves, scores, seed) into its public record."""
    rules = RuleSet.from_dict(stored["rules"])
    deal = Deal.from_pack(rules, stored["players"], stored["dealer"], stored["pack"])
    opening = deal.opening
    return {
        "name": f"room {stored['room_id']} match {stored['match_no']} deal {stored['deal_no']}",
        "rules": {k: v for k, v in rules.to_dict().items() if k in SCENARIO_RULES and v},
        "players": stored["players"],
        "dealer": stored["dealer"],
        "hands": opening.hands,
        "table": opening.table,
        "stock": opening.stock,
        "moves": stored["moves"],
        "deal_no": stored["deal_no"],
        "match_no": stored["match_no"],
        "scores": stored["scores"],
        "totals": stored["totals"],
        "award": award(stored),
        "seed": stored["seed"],
        "commitment": stored["commitment"],
    }
