"""What the bot sends, and when: one play per turn, and the between-deal courtesies.

A turn is named by (match, deal, plays so far in the deal, seat to move): the view's
``seq`` also moves for things that are not plays (a Continue, a seat taken), and a
turn must get one move only.  The planner remembers the play it sent for a turn:

* until the server acknowledges it or refuses it, the turn gets nothing else, and
  after a reconnect the *same* play with the *same* id is sent again (the server
  never plays an id twice, docs/protocol.md);
* a refusal by the rules re-asks the bot (a new id), at most ``max_refusals`` times,
  then plays the turn's first legal move; if even that is refused the turn is left
  to the server's clock and stand-in bot instead of looping;
* ``unavailable``, ``busy`` and ``rate_limited`` mean nothing happened: the same play
  is sent again after a pause, a few times.

Between deals the room may wait for every person's ``continue`` (the room option
``deal_pause``): the bot says it at once, once per deal.  It also says ``deal_shown``
once per deal and connection, as a page does, so its first clock of a deal starts
without waiting for the grace period.
"""

from __future__ import annotations

import itertools
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from .jsontypes import JsonObject
from .view import LegalMove, Move, View

__all__ = ["Chooser", "Pending", "Planner", "TurnKey"]

log = logging.getLogger("krypkasino_client")

Chooser = Callable[[View], Move | LegalMove]
"""A bot: the move to play, given the view when it is the seat's turn."""

TurnKey = tuple[int, int, int, int]
"""(match_no, deal_no, plays in the deal's log, seat to move)."""

RESEND_CODES = frozenset({"unavailable", "busy", "rate_limited"})
"""Errors after which the same play (same id) is sent again: nothing was played."""


def turn_key(view: View) -> TurnKey:
    return (view.match_no, view.deal_no, len(view.log), view.to_move or 0)


@dataclass(slots=True)
class Pending:
    """A play sent for a turn and not yet refused."""

    id: str
    turn: TurnKey
    move: Move
    acked: bool = False
    unsent: bool = False
    """The connection it went out on is gone before its ack: send it again."""
    resends: int = 0


class Planner:
    def __init__(self, choose: Chooser, *, max_refusals: int = 3, max_resends: int = 5) -> None:
        self.choose = choose
        self.max_refusals = max_refusals
        self.max_resends = max_resends
        self.pending: Pending | None = None
        self.refusals: dict[TurnKey, int] = {}
        self.committed = 0
        """Plays of this bot the server stored (acknowledged, or seen in the view)."""
        self.fallbacks = 0
        """Turns played with the first legal move after the bot's moves were refused."""
        self.continued: set[tuple[int, int]] = set()
        self.shown: set[tuple[int, int]] = set()
        self._prefix = uuid.uuid4().hex[:16]
        self._ids = itertools.count(1)

    def new_connection(self) -> None:
        """A new socket: a play not yet acknowledged goes again; deal_shown is said again."""
        if self.pending is not None and not self.pending.acked:
            self.pending.unsent = True
        self.shown.clear()

    def play(self, view: View) -> Pending | None:
        """The play to send now, if any: a new one for a new turn, or the one sent
        for this turn on a connection that has gone."""
        if not view.my_turn:
            return None
        key = turn_key(view)
        pending = self.pending
        if pending is not None and pending.turn == key:
            if pending.unsent:
                pending.unsent = False
                return pending
            return None  # sent; waiting for its ack and patch
        refused = self.refusals.get(key, 0)
        if refused > self.max_refusals:
            return None  # even the first legal move was refused: the server's clock decides
        move = self._first_legal(view) if refused == self.max_refusals else self._chosen(view)
        if refused == self.max_refusals:
            self.fallbacks += 1
        self.pending = Pending(f"{self._prefix}-{next(self._ids)}", key, move)
        return self.pending

    def acked(self, play_id: str | None) -> None:
        """The server stored the play ``play_id``."""
        pending = self.pending
        if pending is not None and pending.id == play_id and not pending.acked:
            pending.acked = True
            self.committed += 1

    def seen(self, view: View) -> None:
        """A new version of the view: the play awaiting its ack may be in it already (the
        patch of a play can come before its ack, and the one that ends the match is the
        last thing the bot reads)."""
        pending = self.pending
        if pending is None or pending.acked:
            return
        match_no, deal_no, index, seat = pending.turn
        if (view.match_no, view.deal_no) != (match_no, deal_no):
            return
        log = view.log
        if len(log) > index and (log[index].seat, log[index].card) == (seat, pending.move.card):
            self.acked(pending.id)

    def refused(self, play_id: str | None, code: str) -> str | None:
        """Handle an error for ``play_id``: ``"resend"`` (send the same play again after a
        pause), ``"rechoose"`` (ask again on the current view), or None (not our play)."""
        pending = self.pending
        if pending is None or pending.id != play_id:
            return None
        if code in RESEND_CODES and pending.resends < self.max_resends:
            pending.resends += 1
            pending.unsent = True
            return "resend"
        self.refusals[pending.turn] = self.refusals.get(pending.turn, 0) + 1
        self.pending = None
        return "rechoose"

    def prompts(self, view: View) -> list[JsonObject]:
        """``continue`` while the room waits for this seat between deals; ``deal_shown``
        once per deal in play."""
        you = view.you
        if you is None or view.status != "playing":
            return []
        deal = (view.match_no, view.deal_no)
        out: list[JsonObject] = []
        between = view.between
        if between is not None and you not in between.ready and deal not in self.continued:
            self.continued.add(deal)
            out.append({"type": "continue"})
        if between is None and view.to_move is not None and deal not in self.shown:
            self.shown.add(deal)
            out.append({"type": "deal_shown", "match_no": deal[0], "deal_no": deal[1]})
        return out

    def _chosen(self, view: View) -> Move:
        legal = view.legal
        try:
            choice = self.choose(view)
        # The bot's own code is a task boundary: whatever it raises, the seat must still
        # move, so the error is logged with its traceback and a legal move is played.
        except Exception:
            log.exception("the bot's choose() failed; playing the first legal move")
            return self._first_legal(view)
        move = Move(choice.card, tuple(choice.take))
        if _same(move) not in {_same(m.move) for m in legal}:
            log.warning("choose() answered %s, which is not legal here; playing the first", move)
            return self._first_legal(view)
        return move

    @staticmethod
    def _first_legal(view: View) -> Move:
        return view.legal[0].move


def _same(move: Move) -> tuple[str, tuple[str, ...]]:
    """A move compared as the server compares it: the taken cards in any order."""
    return move.card, tuple(sorted(move.take))
