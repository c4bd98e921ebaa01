"""A pack played by the engine: CPU only, no I/O, so it runs in a worker thread or
in the background workers (app/core/processes.py), pickled across.

Each deal of the pack is the pack's seed dealt as the rooms deal it
(``shuffled_pack(seed)``, ``Deal.from_pack``), with the entrants seated as
``PackPlan.seatings`` says; each seat's move comes from its ``SeatPlayer``, given
the seat's information set and legal moves only.  Between moves the worker steps
aside for live bot moves (``pause_for_live_moves``: nothing outside a background
worker).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.bots.duplicate import side_totals
from app.core.processes import pause_for_live_moves
from app.engine.deal import Deal
from app.engine.shuffle import shuffled_pack
from app.engine.view_types import ScoreJson
from app.rooms.domain.record_types import RecordMove

from .entrants import Entrant, seat_player
from .schedule import DEALER, PackPlan


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """One deal of a pack as it was played."""

    index: int
    """0-based: the rotation (deal ``index`` seats position i at seat i + index)."""
    moves: list[RecordMove]
    scores: list[ScoreJson]
    """Each seat's score in full (R6), as a room's record gives it."""
    totals: list[int]
    """Each seat's deal score as the ladder counts it (its team's under V1)."""


def deal_of(plan: PackPlan) -> Deal:
    """A fresh deal of the pack, before its first move."""
    pack = shuffled_pack(plan.seed, plan.rules.copies)
    return Deal.from_pack(plan.rules, plan.players, DEALER, pack)


def play_pack(
    plan: PackPlan, worlds: int, pause: Callable[[], None] = pause_for_live_moves
) -> list[PlayedDeal]:
    """Every deal of the pack, each seat played by its entrant."""
    played = []
    for index, seats in enumerate(plan.seatings()):
        players = [
            seat_player(Entrant.from_id(e), plan.seed, index, seat, worlds)
            for seat, e in enumerate(seats)
        ]
        deal = deal_of(plan)
        moves: list[RecordMove] = []
        while not deal.is_over:
            pause()
            seat = deal.to_move
            assert seat is not None  # a deal not over has a seat to move
            move = players[seat].choose(deal.information_set(seat), deal.legal())
            deal.apply(move.card, move.take)
            moves.append({"card": move.card, "take": list(move.take)})
        totals = side_totals(plan.rules, deal.totals())
        played.append(PlayedDeal(index, moves, deal.scores_list(), totals))
    return played
