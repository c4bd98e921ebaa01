"""A deal's moves as its record keeps them, and where take-backs and hints were (issue 33).

The record of a deal is a scenario that replays from its pack (and its seed): its
``moves`` must be exactly the plays that stand.  A take-back undoes plays, so the
stores do not list every stored play: they hand the deal's plays, take-backs and
hints, in order, to ``deal_moves``, which keeps the plays that stand and marks each
take-back (with the plays it undid) and each hint at the step it happened.  Both
stores (app/rooms/memory.py, app/db/deal_records.py) call it, so they agree.
"""

from __future__ import annotations

from collections.abc import Iterable

from .assist_events import HintGiven, TakenBack
from .events import Played, move_by
from .record_types import AssistMark, RecordMove


def record_move(play: Played) -> RecordMove:
    """A play as a record lists it; ``by`` says the clock or a stand-in bot played it."""
    out: RecordMove = {"card": play.card, "take": list(play.take)}
    by = move_by(play.client_id)
    if by is not None:
        out["by"] = by
    return out


def deal_moves(
    events: Iterable[Played | TakenBack | HintGiven],
) -> tuple[list[RecordMove], list[AssistMark]]:
    """The plays that stand, and the take-backs and hints among them (in order)."""
    moves: list[RecordMove] = []
    marks: list[AssistMark] = []
    for body in events:
        if isinstance(body, Played):
            moves.append(record_move(body))
        elif isinstance(body, TakenBack):
            kept = max(0, len(moves) - body.plays)
            marks.append(
                {"index": kept, "kind": "takeback", "seat": body.seat, "moves": moves[kept:]}
            )
            del moves[kept:]
        else:
            marks.append(
                {
                    "index": len(moves),
                    "kind": "hint",
                    "seat": body.seat,
                    "card": body.card,
                    "take": list(body.take),
                }
            )
    return moves, marks
