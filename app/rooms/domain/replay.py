"""Every position of a finished deal, replayed by the engine, for the replay viewer.

The viewer in the browser must not know the rules: it shows these positions as
they are.  Each one is the engine's public view of the deal after a move
(``app.engine.views.public_deal_view``) plus every hand, which is no secret
once the deal is over; ``move`` says what the move did, as the engine's
``MoveResult`` has it (kind, cards taken, who conceded a sweep, whether a
packet was dealt after it).  Only a finished deal is ever replayed here: the
callers get the stored deal from ``deal_record`` of the repository, which has
nothing for a deal still in play.
"""

from __future__ import annotations

from app.engine.cards import sorted_cards
from app.engine.deal import Deal, MoveResult
from app.engine.rules import RuleSet
from app.engine.view_types import AwardJson, Position, PositionMove
from app.engine.views import public_deal_view

from .record_types import StoredDeal

DROPPED = ("log", "last_move", "players", "dealer", "hand_counts", "sweep_call")
"""Keys of the engine's view a position leaves out: the move list is the record's
``moves`` and each position carries its own ``move``; the rest is the same in every
position (in the record once) or is in ``hands``."""


def _move(result: MoveResult) -> PositionMove:
    return {
        "seat": result.seat,
        "card": result.card,
        "kind": result.kind,
        "taken": list(result.taken),
        "conceded_by": result.conceded_by,
        "packet_dealt": result.packet_dealt,
    }


def position_of(deal: Deal, step: int, result: MoveResult | None) -> Position:
    """One position as the replay viewer shows it: the engine's public view, every
    hand, and what the move that led here did (also a review's what-if, issue 31).

    Every key of the view but ``DROPPED``, in the view's order (``Position`` names
    them; tests/rooms/domain/test_replay.py checks that none is missed)."""
    view = public_deal_view(deal)
    return {
        "to_move": view["to_move"],
        "table": view["table"],
        "stock_count": view["stock_count"],
        "last_packet": view["last_packet"],
        "packets": view["packets"],
        "set_aside_spades": view["set_aside_spades"],
        "set_aside_other": view["set_aside_other"],
        "sweep_markers": view["sweep_markers"],
        "last_capturer": view["last_capturer"],
        "scores": view["scores"],
        "team_scores": view["team_scores"],
        "partners": view["partners"],
        "award": view["award"],
        "deal_over": view["deal_over"],
        "total_points": view["total_points"],
        "step": step,
        "hands": [sorted_cards(h) for h in deal.hands],
        "move": _move(result) if result is not None else None,
    }


def opening_deal(stored: StoredDeal) -> Deal:
    """The deal as dealt from the stored pack (what the record's scenario describes)."""
    rules = RuleSet.from_dict(stored["rules"])
    return Deal.from_pack(rules, stored["players"], stored["dealer"], stored["pack"])


def positions(stored: StoredDeal) -> list[Position]:
    """Position 0 as dealt (pictures set aside, bordstabbe scored), then one position
    after each stored move; the last one carries the award.  Raises ValueError when
    the stored moves do not replay (a corrupt row), rather than showing a wrong game."""
    deal = opening_deal(stored)
    out = [position_of(deal, 0, None)]
    for i, move in enumerate(stored["moves"], start=1):
        result = deal.apply(move["card"], move.get("take") or [])
        out.append(position_of(deal, i, result))
    if not deal.is_over:
        raise ValueError("the stored moves do not finish the deal")
    return out


def award(stored: StoredDeal) -> AwardJson | None:
    """The end-of-deal award (R5) of a finished deal, replayed."""
    deal = opening_deal(stored)
    for move in stored["moves"]:
        deal.apply(move["card"], move.get("take") or [])
    return deal.award.to_dict() if deal.award is not None else None
