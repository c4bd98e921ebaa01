"""The tutorial's deal, played through by the engine (``GET /api/tutorial``).

The browser shows the tutorial without a room: it steps through the positions
``tutorial()`` returns, each the game's own view of the learner's seat
(views.py), with the next play and what it does.  Only the cards and the plays
are written here (``TUTORIAL``); every result is the engine's, and a play that
is not legal is refused.  The step texts are static/rules/<lang>.json's
``tutorial``.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from .deal import Deal
from .moves import Move
from .rules import RuleSet, RuleValues
from .view_types import DealView, LegalMoveJson, MoveKind
from .views import private_view, public_deal_view

TUTORIAL_SEAT = 0
"""The learner's seat in the tutorial; the other seat is a bot."""


class TutorialScript(TypedDict):
    """A tutorial's deal as written: the position, and each play as (card, cards taken,
    the step it explains: only on the learner's plays)."""

    rules: RuleValues
    players: int
    dealer: int
    hands: list[list[str]]
    table: list[str]
    stock: list[str]
    moves: list[tuple[str, tuple[str, ...], str | None]]


class TutorialMove(TypedDict):
    """The play made next from a frame's position, as the engine describes it."""

    seat: int
    card: str
    take: list[str]
    kind: MoveKind
    points: int
    sweep: int
    forced: bool
    step: str | None


class Frame(TypedDict):
    view: DealView
    move: TutorialMove | None


class TutorialAnswer(TypedDict):
    """``GET /api/tutorial``'s answer (``tutorial``)."""

    players: int
    dealer: int
    you: int
    rules: RuleValues
    steps: list[str]
    frames: list[Frame]


TUTORIAL: TutorialScript = {
    "rules": {},
    "players": 2,
    "dealer": 1,
    "hands": [["2D", "8C", "9S"], ["4C", "7H", "4H"]],
    "table": ["3H", "9C", "5C", "KH", "JS"],
    "stock": ["AH", "9H", "8D", "5D", "5D", "5H", "10D", "5S"],
    # (card, cards taken, the step explained: only on the learner's plays)
    "moves": [
        ("2D", (), "creep"),
        ("4C", (), None),
        ("8C", ("3H", "5C"), "sum"),
        ("7H", (), None),
        ("9S", ("9C", "2D", "7H"), "maximal"),
        ("4H", ("4C",), None),
        ("AH", (), "ace"),
        ("8D", (), None),
        ("9H", ("AH", "8D"), "forced"),
        ("5D", (), None),
        ("5H", ("5D",), "twin"),
        ("10D", (), None),
        ("5D", (), "last"),
        ("5S", ("5D",), None),
    ],
}
"""The tutorial's deal: you (seat 0) against a bot, set up so that each of your
plays shows one rule.  Only the cards and the plays are written here: what each
play does, every position and the scores are the engine's (``tutorial``).  The
step texts are static/rules/<lang>.json's ``tutorial.steps``."""


def _frame_view(deal: Deal, seat: int, move: Move | None) -> DealView:
    """The view the learner sees in this position: the game's own view of the
    deal for ``seat``, with the scripted play as the only one offered."""
    view: DealView = {**public_deal_view(deal), **private_view(deal, seat, playing=False)}
    view["packets"] = [m.copy() for m in view["packets"]]  # a copy: the marks are shared
    if move is not None and deal.to_move == seat:
        view["legal"] = [_described(deal, move)]
    return view


def _described(deal: Deal, move: Move) -> LegalMoveJson:
    """``move`` as the view's ``legal`` describes it (card, take, kind, points, sweep)."""
    for m in deal.legal_described():
        take = m["take"]
        if m["card"] == move.card and isinstance(take, list) and Move.of(move.card, take) == move:
            return m
    raise ValueError(f"{move.card} taking {list(move.take)} is not legal here")


def _is_forced(deal: Deal) -> bool:
    """R4.1: every legal play takes the whole (non-empty) table."""
    table = Counter(deal.table)
    return bool(table) and all(Counter(m.take) == table for m in deal.legal_moves())


def tutorial(script: TutorialScript | None = None) -> TutorialAnswer:
    """The tutorial as the client shows it, every position played by ``Deal``.

    ``{"players", "dealer", "you", "rules", "steps", "frames"}``: ``steps`` the
    learner's steps in order; ``frames`` one per position, from the opening
    (pictures already set aside, R2.4) to the end of the deal, each
    ``{"view", "move"}``: ``view`` the view of the learner's seat (the game's
    view, ``legal`` holding only the scripted play on the learner's turn) and
    ``move`` the play made next, as the engine describes it: ``{"seat",
    "card", "take", "kind", "points", "sweep", "forced", "step"}`` (null in the
    last frame).  Raises ValueError when a scripted play is not legal, or a step
    is not on a learner's play.
    """
    script = TUTORIAL if script is None else script
    rules = RuleSet.from_dict(script["rules"])
    players = script["players"]
    you = TUTORIAL_SEAT
    deal = Deal.from_position(
        rules, players, script["dealer"], script["hands"], script["table"], script["stock"]
    )
    frames: list[Frame] = []
    steps: list[str] = []
    for i, (card, take, step) in enumerate(script["moves"]):
        seat = deal.to_move
        if seat is None:
            raise ValueError(f"tutorial play {i}: the deal is already over")
        move = Move.of(card, take)
        kind = deal.legal_kinds().get(move)
        if kind is None:
            raise ValueError(f"tutorial play {i}: {card} taking {list(take)} is not legal")
        if (step is not None) != (seat == you):
            raise ValueError(f"tutorial play {i}: a step goes with each of the learner's plays")
        described = _described(deal, move)
        frames.append(
            {
                "view": _frame_view(deal, you, move),
                "move": {
                    "seat": seat,
                    "card": card,
                    "take": described["take"],
                    "kind": kind,
                    "points": described["points"],
                    "sweep": described["sweep"],
                    "forced": _is_forced(deal),
                    "step": step,
                },
            }
        )
        if step is not None:
            steps.append(step)
        deal.play_legal(move, kind)
    if not deal.is_over:
        raise ValueError("the tutorial's plays do not finish the deal")
    frames.append({"view": _frame_view(deal, you, None), "move": None})
    return {
        "players": players,
        "dealer": script["dealer"],
        "you": you,
        "rules": rules.to_dict(),
        "steps": steps,
        "frames": frames,
    }
