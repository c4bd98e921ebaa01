"""Deal records: a finished deal as a replayable scenario (scenarios/FORMAT.md).

``StoredDeal`` is what a store keeps of a finished deal (its pack, dealer, moves,
scores, seed); ``deal_record`` turns it into the public record that every
history endpoint serves and ``krypkasino scenario`` replays.
"""

from __future__ import annotations

from app.engine.deal import Deal
from app.engine.rules import RuleSet

from .record_types import DealRecord, StoredDeal
from .replay import award


def deal_record(stored: StoredDeal) -> DealRecord:
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
        "hands": [list(h) for h in opening.hands],
        "table": list(opening.table),
        "stock": list(opening.stock),
        "moves": stored["moves"],
        "deal_no": stored["deal_no"],
        "match_no": stored["match_no"],
        "scores": stored["scores"],
        "totals": stored["totals"],
        "award": award(stored),
        "seed": stored["seed"],
        "commitment": stored["commitment"],
        "assists": stored.get("assists", []),
    }
