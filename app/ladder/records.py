"""A deal of a published pack as a scenario of FORMAT.md: the opening position comes
from the pack's seed through the engine (as a room's record comes from its pack), the
moves and scores from what was stored.  ``krypkasino scenario`` replays it."""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.rules import RuleSet, RuleValues
from app.engine.view_types import ScoreJson
from app.rooms.domain.record_types import RecordMove

from .entrants import Entrant
from .play import deal_of
from .published import EntrantJson, LadderDealJson
from .schedule import DEALER, PackPlan


def plan_from(
    seed: str, players: int, rules: RuleValues, entrants: Sequence[EntrantJson]
) -> PackPlan:
    """The plan a stored or published pack was played as."""
    table = tuple(Entrant.from_id(e["entrant"]) for e in entrants)
    return PackPlan(seed, players, RuleSet.from_dict(rules), table)


def deal_record(
    pack_id: int,
    plan: PackPlan,
    index: int,
    moves: list[RecordMove],
    scores: list[ScoreJson],
    totals: list[int],
) -> LadderDealJson:
    """Deal ``index`` of pack ``pack_id`` (played as ``plan``) as its public record."""
    opening = deal_of(plan).opening
    return {
        "name": f"ladder pack {pack_id} deal {index}",
        "rules": {k: v for k, v in plan.rules.to_dict().items() if v not in (None, False)},
        "players": plan.players,
        "dealer": DEALER,
        "hands": [list(h) for h in opening.hands],
        "table": list(opening.table),
        "stock": list(opening.stock),
        "moves": moves,
        "deal": index,
        "seats": plan.seatings()[index],
        "scores": scores,
        "totals": totals,
        "seed": plan.seed,
    }
