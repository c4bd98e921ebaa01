"""A finished deal as the archive stores it, for what-if tests."""

from __future__ import annotations

import random

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from app.rooms.domain.record_types import StoredDeal
from app.simulation import play_random


def stored_deal(seed: int = 5) -> StoredDeal:
    rules = RuleSet(single_pack=True)
    pack = shuffled_pack(f"seed-{seed}", 1)
    deal = Deal.from_pack(rules, 2, 1, pack)
    play_random(deal, random.Random(seed))
    return {  # type: ignore[typeddict-item]
        "rules": rules.to_dict(),
        "players": 2,
        "dealer": 1,
        "pack": pack,
        "moves": [{"card": m.card, "take": list(m.take)} for m in deal.moves],
    }
