"""Deal records: a finished deal as a replayable scenario (scenarios/FORMAT.md)."""

from __future__ import annotations

from typing import Any

from app.engine.deal import Deal
from app.engine.rules import RuleSet

from .replay import award


def deal_record(stored: dict[str, Any]) -> dict[str, Any]:
    """Turn the stored deal (pack, dealer, moves, scores, seed) into its public record."""
    rules = RuleSet.from_dict(stored["rules"])
    deal = Deal.from_pack(rules, stored["players"], stored["dealer"], stored["pack"])
    opening = deal.opening
    return {
        "name": f"room {stored['room_id']} match {stored['match_no']} deal {stored['deal_no']}",
        # every option the room chose: the scenario format accepts the match-level
        # ones too (V8, V10), so the record replays as it was served
        "rules": {k: v for k, v in rules.to_dict().items() if v not in (None, False)},
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
