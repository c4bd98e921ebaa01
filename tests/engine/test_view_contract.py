"""The view's contract (docs/protocol.md, "The view"): exactly these keys, each
holding what the engine's state says, for a seat, a spectator, before the first
deal and between deals.

tests/engine/test_views.py checks that nothing hidden leaks; these check that
everything promised is there and right.  Mutation testing (docs/testing.md)
showed that renaming a key of the view, or dropping the last move or the team
totals from it, passed every engine test before this file.
"""

from __future__ import annotations

import random

import pytest

from app.engine.deal import Deal
from app.engine.hints import sweep_call
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.views import PRIVATE_KEYS, SPECTATOR, match_view, public_match_view
from app.simulation import random_deal

DEAL_KEYS = {
    "players", "dealer", "to_move", "hand_counts", "table", "stock_count", "last_packet",
    "packets", "set_aside_spades", "set_aside_other", "sweep_markers", "last_capturer", "scores",
    "team_scores", "partners", "last_move", "log", "award", "deal_over", "total_points",
    "sweep_call",
}  # fmt: skip
MATCH_KEYS = {
    "status", "deal_no", "deals_total", "match_limit", "cumulative", "team_cumulative",
    "deal_totals", "winners", "rules",
}  # fmt: skip


def played(rules: RuleSet, players: int, seed: int, moves: int) -> Deal:
    rng = random.Random(seed)
    deal = random_deal(rules, players, rng)
    for _ in range(moves):
        if deal.is_over:
            break
        m = rng.choice(deal.legal_moves())
        deal.apply(m.card, m.take)
    return deal


def expected_public(deal: Deal) -> dict[str, object]:
    """The public deal part, read from the deal's state one field at a time (the
    set-aside piles apart: the view sorts them for display)."""
    return {
        "players": deal.players,
        "dealer": deal.dealer,
        "to_move": deal.to_move,
        "hand_counts": [len(h) for h in deal.hands],
        "table": list(deal.table),
        "stock_count": len(deal.stock),
        "last_packet": deal.last_packet,
        "sweep_markers": [list(m) for m in deal.sweep_markers],
        "last_capturer": deal.last_capturer,
        "scores": deal.scores_list(),
        "partners": [deal.rules.partner_of(s) for s in range(deal.players)],
        "log": [
            {"seat": r.seat, "card": r.card, "kind": r.kind, "taken": list(r.taken)}
            for r in deal.results
        ],
        "award": deal.award.to_dict() if deal.award else None,
        "deal_over": deal.is_over,
        "total_points": deal.total_points(),
        "sweep_call": sweep_call(deal),
    }


@pytest.mark.parametrize("seat", [SPECTATOR, 0, 1, 2, 3])
@pytest.mark.parametrize("partnership", [False, True])
def test_a_playing_view_has_exactly_the_documented_keys_and_the_deals_values(
    seat: int | None, partnership: bool
) -> None:
    rules = RuleSet(partnership=partnership)
    match = Match(rules, 4, 2)
    deal = played(rules, 4, 11, 13)
    view = match_view(match, deal, seat, "playing", 3)
    assert set(view) == DEAL_KEYS | MATCH_KEYS | set(PRIVATE_KEYS)
    want = expected_public(deal)
    for key in ("set_aside_spades", "set_aside_other"):  # sorted for display
        assert sorted(view[key]) == sorted(getattr(deal, key)), key
    for key, value in want.items():
        assert view[key] == value, key
    assert view["last_move"] == want["log"][-1]  # type: ignore[index]
    totals = [s["total"] for s in deal.scores_list()]
    if partnership:  # V1: a team's score is its two seats' together
        assert view["team_scores"] == [totals[0] + totals[2], totals[1] + totals[3]]
    else:
        assert view["team_scores"] is None
    assert view["status"] == "playing" and view["deal_no"] == 3
    assert view["deals_total"] == match.deals_total and view["match_limit"] == rules.match_limit
    assert view["cumulative"] == match.cumulative == [0, 0, 0, 0]
    assert view["team_cumulative"] == match.team_cumulative
    assert view["deal_totals"] == [] and view["winners"] == match.winners()
    assert view["rules"] == rules.to_dict()
    assert view["you"] == seat
    # private: the seat's own hand, and legal moves only for the seat to move
    assert sorted(view["hand"]) == sorted(deal.hands[seat] if seat is not None else [])
    assert view["legal"] == (deal.legal_described() if seat == deal.to_move else [])


def test_a_room_closed_mid_deal_offers_no_moves_even_to_the_seat_to_move() -> None:
    rules = RuleSet()
    deal = played(rules, 3, 8, 4)
    seat = deal.to_move
    assert seat is not None and not deal.is_over
    match = Match(rules, 3, 0)
    assert match_view(match, deal, seat, "playing", 1)["legal"]
    closed = match_view(match, deal, seat, "finished", 1)
    assert closed["legal"] == [] and closed["to_move"] is None
    assert sorted(closed["hand"]) == sorted(deal.hands[seat]), "the hand is still shown"


def test_before_the_first_deal_a_seat_has_its_private_keys_empty() -> None:
    view = match_view(Match(RuleSet(), 2, 0), None, 1, "waiting", 1)
    assert {k: view[k] for k in PRIVATE_KEYS} == {"you": 1, "hand": [], "legal": []}


def test_between_deals_nobody_is_to_move_and_a_played_match_shows_its_standing() -> None:
    rules = RuleSet()
    match = Match(rules, 2, 0)
    deal = played(rules, 2, 5, 400)
    assert deal.is_over
    match.record_deal([s["total"] for s in deal.scores_list()])
    view = match_view(match, deal, 0, "between", 1)
    assert view["to_move"] is None and view["status"] == "between"
    assert view["legal"] == [] and view["last_move"] == view["log"][-1]
    assert view["cumulative"] == match.cumulative and view["deal_totals"] == [
        list(t) for t in match.deal_totals
    ]
    assert len(view["deal_totals"]) == 1 and view["award"] == deal.award.to_dict()  # type: ignore[union-attr]


def test_before_the_first_deal_the_view_is_empty_but_complete() -> None:
    rules = RuleSet(partnership=True)
    match = Match(rules, 4, 3)
    view = public_match_view(match, None, "waiting", 1)
    assert set(view) == DEAL_KEYS | MATCH_KEYS
    assert view["dealer"] == match.dealer_for(match.next_deal_no)
    assert view["to_move"] is None and view["players"] == 4
    assert view["hand_counts"] == [0, 0, 0, 0] and view["sweep_markers"] == [[], [], [], []]
    assert view["table"] == [] and view["stock_count"] == 0 and view["scores"] == []
    assert view["set_aside_spades"] == [] and view["set_aside_other"] == []
    assert view["last_packet"] is False and view["deal_over"] is False and view["packets"] == []
    assert view["last_capturer"] is None and view["last_move"] is None and view["log"] == []
    assert view["award"] is None and view["team_scores"] is None and view["total_points"] == 0
    assert view["partners"] == [2, 3, 0, 1]
    assert view["status"] == "waiting" and view["deal_no"] == 1
