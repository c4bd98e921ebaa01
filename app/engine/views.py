"""What one seat, or a spectator, may see (PROTOCOL.md, the view).

The server sends nothing about a deal but what these functions return, so a
hidden card cannot leak by accident: another seat's hand appears only as a
count, the stock only as a count, and legal moves only to the seat to move.
Everything else here is public at a real table: the table, the set-aside
pictures, sweep markers (R4.4), every play and what it took, the scores.

A view is split in two: the public part, the same for every connection of a
room (so the server builds and diffs it once per change), and the private
part (``PRIVATE_KEYS``) of one seat.  ``match_view`` joins them.
"""

from __future__ import annotations

from typing import TypedDict

from .cards import sorted_cards
from .deal import Deal, MoveResult
from .facts import packet_marks
from .hints import sweep_call
from .match import Match
from .scoring import team_totals
from .view_types import (
    DealView,
    MatchView,
    PlayJson,
    PrivateView,
    PublicDealView,
    PublicMatchView,
    ScoreJson,
)

SPECTATOR = None
PRIVATE_KEYS = ("you", "hand", "legal")
"""The only keys whose values differ between connections of one room."""


class DealParts(TypedDict):
    """The slow-changing parts of a deal's public view (``deal_parts``)."""

    set_aside_spades: list[str]
    set_aside_other: list[str]
    sweep_markers: list[list[str]]
    partners: list[int | None]


def _move(result: MoveResult) -> PlayJson:
    return {
        "seat": result.seat,
        "card": result.card,
        "kind": result.kind,
        "taken": list(result.taken),
    }


def private_view(deal: Deal | None, seat: int | None, playing: bool = True) -> PrivateView:
    """What only ``seat`` sees: its own hand, and its legal moves when it is to move.

    A legal move is ``{"card", "take", "kind", "points", "sweep"}``: ``kind``
    is creep, capture, sweep or double_sweep, ``points`` the card points it
    captures and ``sweep`` what it adds as a sweep (R4.2, R4.3: 0, 5 or 10),
    so no client works a rule out again.
    """
    if deal is None:
        return {"you": seat, "hand": [], "legal": []}
    if seat is not None and not 0 <= seat < deal.players:
        raise ValueError("no such seat")
    to_move = playing and seat is not None and seat == deal.to_move
    return {
        "you": seat,
        "hand": sorted_cards(deal.hands[seat]) if seat is not None else [],
        # each move with what it does and its card points, from the engine (R3, R4, R6.1)
        "legal": deal.legal_described() if to_move else [],
    }


def _log(deal: Deal, built: list[PlayJson] | None) -> list[PlayJson]:
    results = deal.results
    if built is None or len(built) > len(results):
        return [_move(r) for r in results]
    return built + [_move(r) for r in results[len(built) :]]


def _scores(deal: Deal, previous: list[ScoreJson] | None) -> list[ScoreJson]:
    """Each seat's score record; a record of ``previous`` (an earlier view of this
    deal) is reused while that seat's score is what it says (most moves capture
    nothing, and a capture changes one seat's)."""
    out: list[ScoreJson] = []
    kept = 0
    for seat, s in enumerate(deal.scores):
        old = previous[seat] if previous is not None and seat < len(previous) else None
        if (
            old is not None
            and old["card_points"] == s.card_points
            and old["sweeps"] == s.sweeps
            and old["double_sweeps"] == s.double_sweeps
            and old["sweeps_conceded"] == s.sweeps_conceded
            and old["double_sweeps_conceded"] == s.double_sweeps_conceded
            and old["bordstabbe"] == s.bordstabbe
        ):
            out.append(old)  # the other keys follow from these six
            kept += 1
        else:
            out.append(s.to_dict(seat))
    if previous is not None and kept == len(previous) == len(out):
        return previous  # every record holds: the very list (one identity check to diff)
    return out


def deal_parts(deal: Deal) -> DealParts:
    """The parts of the deal's public view that change a few times a deal at most:
    the pictures set aside (R2.4), the sweep markers (R4.4) and the partners (V1).
    A caller that knows they did not change passes the last ones back in (as
    ``public_deal_view``'s ``parts``) instead of building them after every move."""
    return {
        "set_aside_spades": sorted_cards(deal.set_aside_spades),
        "set_aside_other": sorted_cards(deal.set_aside_other),
        "sweep_markers": [list(m) for m in deal.sweep_markers],
        "partners": [deal.rules.partner_of(s) for s in range(deal.players)],  # V1
    }


def public_deal_view(
    deal: Deal,
    log: list[PlayJson] | None = None,
    scores: list[ScoreJson] | None = None,
    parts: DealParts | None = None,
) -> PublicDealView:
    """The deal as everyone at the table sees it (no hand, no stock order).

    ``log`` is this deal's log as an earlier view of it built it: a deal's log
    only grows, so its entries are reused and only the new plays are built (a
    server builds the view after every move; the reused entries are also the
    very objects the previous view held, which makes comparing the two cheap).
    ``scores``, the same view's score records, are reused where they still hold.
    ``parts``: ``deal_parts`` of this deal as it stands (built here when None).
    """
    if parts is None:
        parts = deal_parts(deal)
    return {
        "players": deal.players,
        "dealer": deal.dealer,
        "to_move": deal.to_move,
        "hand_counts": [len(h) for h in deal.hands],
        "table": list(deal.table),
        "stock_count": len(deal.stock),
        "last_packet": deal.last_packet,
        "packets": packet_marks(deal),  # R2.5: where the packets came (facts.py)
        "set_aside_spades": parts["set_aside_spades"],
        "set_aside_other": parts["set_aside_other"],
        "sweep_markers": parts["sweep_markers"],
        "last_capturer": deal.last_capturer,
        "scores": _scores(deal, scores),
        "team_scores": (
            team_totals(deal.totals(), True) if deal.rules.partnership else None  # V1
        ),
        "partners": parts["partners"],
        "last_move": _move(deal.results[-1]) if deal.results else None,
        "log": _log(deal, log),
        "award": deal.award.to_dict() if deal.award else None,
        "deal_over": deal.is_over,
        "total_points": deal.total_points(),
        "sweep_call": sweep_call(deal),  # "tabbe på 9" (hints.py)
    }


def deal_view(deal: Deal, seat: int | None) -> DealView:
    """The deal part of a view for ``seat`` (None: a spectator)."""
    return {**public_deal_view(deal), **private_view(deal, seat)}


def public_match_view(
    match: Match,
    deal: Deal | None,
    status: str,
    deal_no: int,
    log: list[PlayJson] | None = None,
    scores: list[ScoreJson] | None = None,
    parts: DealParts | None = None,
) -> PublicMatchView:
    """The public part of the view: the current deal plus the match standing.

    ``deal``, numbered ``deal_no``, is the deal being played, or the last one
    finished once the match is over; None before the first deal starts.
    ``log``, ``scores`` and ``parts``: see ``public_deal_view``.
    """
    if deal is None:
        part: PublicDealView = {
            "players": match.players,
            "dealer": match.dealer_for(match.next_deal_no),
            "to_move": None,
            "hand_counts": [0] * match.players,
            "table": [],
            "stock_count": 0,
            "last_packet": False,
            "packets": [],
            "set_aside_spades": [],
            "set_aside_other": [],
            "sweep_markers": [[] for _ in range(match.players)],
            "last_capturer": None,
            "scores": [],
            "team_scores": None,
            "partners": [match.rules.partner_of(s) for s in range(match.players)],
            "last_move": None,
            "log": [],
            "award": None,
            "deal_over": False,
            "total_points": 0,
            "sweep_call": None,
        }
    else:
        part = public_deal_view(deal, log, scores, parts)
    # the same dict, given the match's keys below (no cast: a call per move)
    view: PublicMatchView = part  # type: ignore[assignment]
    if status != "playing":
        view["to_move"] = None
    view["status"] = status
    view["deal_no"] = deal_no
    standing = match.standing()
    view["deals_total"] = standing["deals_total"]
    view["match_limit"] = standing["match_limit"]
    view["cumulative"] = standing["cumulative"]
    view["team_cumulative"] = standing["team_cumulative"]
    view["deal_totals"] = standing["deal_totals"]
    view["winners"] = standing["winners"]
    view["rules"] = standing["rules"]
    return view


def match_view(
    match: Match, deal: Deal | None, seat: int | None, status: str, deal_no: int
) -> MatchView:
    """The whole view of PROTOCOL.md for ``seat`` (None: a spectator)."""
    view = public_match_view(match, deal, status, deal_no)
    return {**view, **private_view(deal, seat, playing=status == "playing")}
