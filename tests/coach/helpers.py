"""Finished deals played by bots, as the stores keep them (``StoredDeal``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.bots import choose
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from app.rooms.domain.record_types import RecordMove, StoredDeal


def bot_deal(
    levels: Sequence[str], seed: int, rules: RuleSet | None = None, budget_s: float = 0.05
) -> StoredDeal:
    """A deal played to its end by one bot level per seat (strong with a small budget)."""
    rules = rules or RuleSet()
    players = len(levels)
    pack = shuffled_pack(f"coach-test:{seed}", rules.copies)
    deal = Deal.from_pack(rules, players, seed % players, pack)
    rng = random.Random(seed)
    moves: list[RecordMove] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        m = choose(
            deal.information_set(seat), deal.legal(), levels[seat], rng=rng, budget_s=budget_s
        )
        moves.append({"card": m.card, "take": list(m.take)})
        deal.apply(m.card, m.take)
    return {
        "room_id": "0" * 32,
        "match_no": 1,
        "deal_no": 1,
        "rules": rules.to_dict(),
        "pack": pack,
        "dealer": seed % players,
        "players": players,
        "seed": "s",
        "commitment": "c",
        "scores": deal.scores_list(),
        "totals": deal.totals(),
        "moves": moves,
    }
