"""A copy of a deal in play to try moves on: what search does many times per world.

The strong bot plays every candidate move in the same sampled world.
Building the world's deal again for each candidate (``Deal.from_information_set``)
checks the whole position each time (position.py), about a sixth of a
search's time; ``fork`` copies the state instead.  The copy owns every list
that a move changes (hands, table, stock, piles, scores, the records), and
shares what is never changed in place (the rules, the opening, results and
moves already made, the cached legal moves of the current position, which a
move replaces rather than edits).

tests/engine/test_fork.py plays seeded deals through a fork and through the
deal rebuilt from the same position and compares every state.
"""

from __future__ import annotations

from .deal import Deal
from .scoring import Score


def fork(deal: Deal) -> Deal:
    """An independent copy of ``deal``: moves played on one never show on the other."""
    return Deal(
        rules=deal.rules,
        players=deal.players,
        dealer=deal.dealer,
        opening=deal.opening,
        hands=[list(h) for h in deal.hands],
        table=list(deal.table),
        stock=list(deal.stock),
        to_move=deal.to_move,
        last_player=deal.last_player,
        set_aside_spades=list(deal.set_aside_spades),
        set_aside_other=list(deal.set_aside_other),
        piles=[list(p) for p in deal.piles],
        sweep_markers=[list(m) for m in deal.sweep_markers],
        scores=[
            Score(
                s.card_points,
                s.sweeps,
                s.double_sweeps,
                s.sweeps_conceded,
                s.double_sweeps_conceded,
                s.bordstabbe,
            )
            for s in deal.scores
        ],
        last_capturer=deal.last_capturer,
        award=deal.award,
        results=list(deal.results),
        moves=list(deal.moves),
        bordstabbe_seat=deal.bordstabbe_seat,
        packets_dealt=deal.packets_dealt,
        _counts=deal._counts,
        _legal=deal._legal,
        _total_points=deal._total_points,
        _log=list(deal._log),
        _described=deal._described,
    )
