"""A finished deal's analysis: every play rated (rating.py), per-seat sums, and the
JSON the API serves (docs/protocol.md, "The coach's analysis").

The deal is replayed by the engine from its stored record (its pack, dealer and
the plays that stand); each play is rated in the position it was made in.  The
work comes in chunks of plays (``rate_range``) so that a background runner can
report progress and store it between chunks; ``analyse`` does a whole deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypedDict

from app.engine.deal import Deal
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet
from app.rooms.domain.record_types import StoredDeal

from .labels import Thresholds
from .rating import DEFAULT, PlayRating, Settings, rate_play
from .reason import Reason, Side


class MoveJson(TypedDict):
    card: str
    take: list[str]
    expected: float


class HindsightJson(TypedDict):
    card: str
    take: list[str]
    points: float


class SideJson(TypedDict):
    odds: float
    points: float
    seat: int | None


class StepJson(TypedDict):
    seat: int
    card: str
    kind: str
    take: list[str]
    odds: float


class WhyJson(TypedDict):
    """Why a play lost points (app/coach/reason.py; docs/protocol.md)."""

    part: str
    points: float
    played: SideJson
    best: SideJson
    team: bool
    line: list[StepJson]


class PlayJson(TypedDict):
    index: int
    seat: int
    card: str
    take: list[str]
    expected: float
    best: MoveJson
    loss: float
    label: str
    hindsight: HindsightJson
    moves: list[MoveJson]
    """The moves weighed, each with its expected points (issue 31's "learn from your
    mistakes" offers them)."""
    why: WhyJson | None
    """Why it lost points against ``best`` (issue 47); None when it lost none."""


class SeatJson(TypedDict):
    seat: int
    plays: int
    loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


class AnalysisJson(TypedDict):
    status: str
    samples: int
    seed: str
    thresholds: Thresholds
    plays: list[PlayJson]
    seats: list[SeatJson]


def opening(stored: StoredDeal) -> Deal:
    """The deal as dealt from its stored pack."""
    rules = RuleSet.from_dict(stored["rules"])
    return Deal.from_pack(rules, stored["players"], stored["dealer"], stored["pack"])


def _legal_move(deal: Deal, card: str, take: Sequence[str]) -> LegalMove:
    """The engine's legal move of the stored play (raises ValueError if it is not one)."""
    wanted = sorted(take)
    for m in deal.legal():
        if m.card == card and sorted(m.take) == wanted:
            return m
    raise ValueError(f"the stored play {card} {list(take)} is not legal in its position")


def rate_range(
    stored: StoredDeal,
    start: int,
    stop: int,
    seed: str,
    settings: Settings = DEFAULT,
    pause: Callable[[], None] | None = None,
) -> list[PlayJson]:
    """Plays ``start``..``stop - 1`` of the record rated, in record order."""
    deal = opening(stored)
    moves = stored["moves"]
    out: list[PlayJson] = []
    for i, move in enumerate(moves[:stop]):
        played = _legal_move(deal, move["card"], move.get("take") or [])
        if i >= start:
            out.append(play_json(rate_play(deal, i, played, seed, settings, pause)))
        deal.play_legal(played.move, played.kind)
    return out


def play_json(r: PlayRating) -> PlayJson:
    return {
        "index": r.index,
        "seat": r.seat,
        "card": r.card,
        "take": list(r.take),
        "expected": r.expected,
        "best": {"card": r.best.card, "take": list(r.best.take), "expected": r.best.value},
        "loss": r.loss,
        "label": r.label,
        "hindsight": {
            "card": r.hindsight.card,
            "take": list(r.hindsight.take),
            "points": r.hindsight.value,
        },
        "moves": [{"card": m.card, "take": list(m.take), "expected": m.value} for m in r.moves],
        "why": None if r.why is None else why_json(r.why),
    }


def _side_json(s: Side) -> SideJson:
    return {"odds": s.odds, "points": s.points, "seat": s.seat}


def why_json(w: Reason) -> WhyJson:
    return {
        "part": w.part,
        "points": w.points,
        "played": _side_json(w.played),
        "best": _side_json(w.best),
        "team": w.team,
        "line": [
            {"seat": s.seat, "card": s.card, "kind": s.kind, "take": list(s.take), "odds": s.odds}
            for s in w.line
        ],
    }


def seat_summaries(players: int, plays: Sequence[PlayJson]) -> list[SeatJson]:
    """Per seat: its plays, their summed loss (the points the deal cost it against the
    best play) and how many of each label."""
    out: list[SeatJson] = []
    for seat in range(players):
        mine = [p for p in plays if p["seat"] == seat]
        out.append(
            {
                "seat": seat,
                "plays": len(mine),
                "loss": round(sum(p["loss"] for p in mine), 2),
                "inaccuracies": sum(1 for p in mine if p["label"] == "inaccuracy"),
                "mistakes": sum(1 for p in mine if p["label"] == "mistake"),
                "blunders": sum(1 for p in mine if p["label"] == "blunder"),
            }
        )
    return out


def result(
    stored: StoredDeal, plays: Sequence[PlayJson], seed: str, settings: Settings = DEFAULT
) -> AnalysisJson:
    """The finished analysis as the API serves it."""
    if len(plays) != len(stored["moves"]):
        raise ValueError("an analysis has one entry per play of the record")
    return {
        "status": "done",
        "samples": settings.samples,
        "seed": seed,
        "thresholds": settings.thresholds,
        "plays": list(plays),
        "seats": seat_summaries(stored["players"], plays),
    }


def analyse(stored: StoredDeal, seed: str, settings: Settings = DEFAULT) -> AnalysisJson:
    """A whole deal analysed in this process (tests and benchmarks)."""
    return result(
        stored, rate_range(stored, 0, len(stored["moves"]), seed, settings), seed, settings
    )
