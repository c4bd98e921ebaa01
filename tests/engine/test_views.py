"""What a seat or a spectator may see (views.py): never another hand, never the stock.

Two kinds of checks: a *differential* one (shuffle every card the viewer
cannot see among the other hands and the stock: the view must not change by
a single byte), and a direct one (every card code in a view is explained by
public information: the viewer's hand, the table, the set-aside piles, the
log of plays and the end award).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import card_points, is_card
from app.engine.deal import Deal
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.views import SPECTATOR, deal_view, match_view, public_deal_view
from app.simulation import random_deal

PLAYERS = st.integers(min_value=2, max_value=6)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def played_deal(players: int, seed: int, moves: int) -> Deal:
    rng = random.Random(seed)
    deal = random_deal(RuleSet(), players, rng)
    for _ in range(moves):
        if deal.is_over:
            break
        m = rng.choice(deal.legal_moves())
        deal.apply(m.card, m.take)
    return deal


def resumed(deal: Deal, hands, stock) -> Deal:
    """The same position with other hidden cards (a fresh deal, no log)."""
    return Deal.from_position(
        deal.rules,
        deal.players,
        deal.dealer,
        hands,
        list(deal.table),
        stock,
        deal.to_move,
        opening=False,
        last_capturer=deal.last_capturer,
    )


def codes_in(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj] if is_card(obj) else []
    if isinstance(obj, dict):
        return [c for v in obj.values() for c in codes_in(v)]
    if isinstance(obj, (list, tuple)):
        return [c for v in obj for c in codes_in(v)]
    return []


def public_codes(deal: Deal, seat: int | None) -> set[str]:
    seen = set(deal.table) | set(deal.set_aside_spades) | set(deal.set_aside_other)
    for r in deal.results:
        seen.add(r.card)
        seen.update(r.taken)
    if deal.award:
        seen.update(deal.award.cards)
    for markers in deal.sweep_markers:
        seen.update(markers)
    if seat is not None:
        seen.update(deal.hands[seat])
    return seen


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS, moves=st.integers(0, 60), data=st.data())
def test_a_seat_view_does_not_depend_on_cards_it_cannot_see(players, seed, moves, data):
    deal = played_deal(players, seed, moves)
    if deal.is_over:
        return
    seat = data.draw(st.integers(0, players - 1), label="viewer")
    hidden = [c for s, h in enumerate(deal.hands) if s != seat for c in h] + list(deal.stock)
    random.Random(seed + 1).shuffle(hidden)
    hands, pos = [], 0
    for s, h in enumerate(deal.hands):
        if s == seat:
            hands.append(list(h))
        else:
            hands.append(hidden[pos : pos + len(h)])
            pos += len(h)
    stock = hidden[pos:]
    original = resumed(deal, [list(h) for h in deal.hands], list(deal.stock))
    other = resumed(deal, hands, stock)
    assert json.dumps(deal_view(original, seat)) == json.dumps(deal_view(other, seat))
    if original.to_move == seat and any(original.hands[s] for s in range(players) if s != seat):
        m = original.legal_moves()[0]
        original.apply(m.card, m.take)
        other.apply(m.card, m.take)
        assert json.dumps(deal_view(original, seat)) == json.dumps(deal_view(other, seat))


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, moves=st.integers(0, 60))
def test_a_spectator_view_does_not_depend_on_any_hand_or_the_stock(players, seed, moves):
    deal = played_deal(players, seed, moves)
    if deal.is_over:
        return
    hidden = [c for h in deal.hands for c in h] + list(deal.stock)
    random.Random(seed).shuffle(hidden)
    hands, pos = [], 0
    for h in deal.hands:
        hands.append(hidden[pos : pos + len(h)])
        pos += len(h)
    original = resumed(deal, [list(h) for h in deal.hands], list(deal.stock))
    other = resumed(deal, hands, hidden[pos:])
    assert deal_view(original, SPECTATOR) == deal_view(other, SPECTATOR)


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS, moves=st.integers(0, 120))
def test_every_card_in_a_view_is_public_or_the_viewers_own(players, seed, moves):
    deal = played_deal(players, seed, moves)
    for seat in [SPECTATOR, *range(players)]:
        view = deal_view(deal, seat)
        assert set(codes_in(view)) <= public_codes(deal, seat)


def test_a_spectator_sees_no_hand_and_no_legal_moves():
    deal = played_deal(4, 1, 7)
    view = deal_view(deal, SPECTATOR)
    assert view["hand"] == [] and view["legal"] == [] and view["you"] is None
    assert view["hand_counts"] == [len(h) for h in deal.hands]


def test_legal_moves_are_shown_only_to_the_seat_to_move():
    deal = played_deal(3, 2, 5)
    for seat in range(3):
        view = deal_view(deal, seat)
        if seat == deal.to_move:
            assert [{"card": m["card"], "take": m["take"]} for m in view["legal"]] == [
                m.to_dict() for m in deal.legal_moves()
            ]
            assert view["legal"]
            for entry in view["legal"]:  # what each move does, from the engine
                seat_, kind = deal.check(entry["card"], entry["take"])
                assert entry["kind"] == kind
                assert entry["points"] == (
                    0
                    if not entry["take"]
                    else sum(card_points(c) for c in [entry["card"], *entry["take"]])
                )
        else:
            assert view["legal"] == []


def test_a_seat_sees_its_own_hand_sorted_and_only_counts_of_the_others():
    deal = played_deal(4, 3, 2)
    view = deal_view(deal, 2)
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert view["hand"] == sorted(
        deal.hands[2], key=lambda c: (ranks.index(c[:-1]), "SHDC".index(c[-1]))
    )
    assert view["hand_counts"] == [len(h) for h in deal.hands]


def test_the_stock_is_only_a_count():
    deal = played_deal(2, 4, 3)
    view = deal_view(deal, 0)
    assert view["stock_count"] == len(deal.stock)
    assert "stock" not in view
    assert not any(isinstance(v, list) and v == deal.stock for v in view.values())


def test_no_such_seat_is_an_error():
    deal = played_deal(2, 5, 0)
    with pytest.raises(ValueError):
        deal_view(deal, 2)


def test_a_finished_deal_shows_the_award_and_every_card_it_may():
    deal = played_deal(2, 6, 200)
    assert deal.is_over
    view = deal_view(deal, 0)
    assert view["deal_over"] and view["award"] is not None
    assert view["hand"] == [] and view["legal"] == []


def test_match_view_before_the_first_deal_shows_no_cards():
    match = Match(RuleSet(), 3, 1)
    view = match_view(match, None, 0, "waiting", 1)
    assert view["hand"] == [] and view["legal"] == [] and view["table"] == []
    assert view["dealer"] == 1 and view["deals_total"] == 3
    assert codes_in(view) == []


def test_match_view_of_a_seat_hides_the_other_hands():
    match = Match(RuleSet(), 4, 0)
    deal = played_deal(4, 7, 9)
    for seat in [SPECTATOR, 0, 1, 2, 3]:
        view = match_view(match, deal, seat, "playing", 1)
        assert set(codes_in(view)) <= public_codes(deal, seat)
        assert view["cumulative"] == [0, 0, 0, 0]


def test_partners_and_double_sweep_markers_are_public_facts_from_the_engine():
    """V1: who sits with whom; R4.4: a double sweep leaves two face-up markers."""
    rules = RuleSet(partnership=True)
    deal = Deal.resume(rules, 4, 3, [["3D", "5C"], ["7C"], ["8C"], ["9C"]], ["3D"], [], 0)
    deal.apply("3D", ["3D"])
    view = public_deal_view(deal)
    assert view["partners"] == [2, 3, 0, 1]
    assert view["sweep_markers"][0] == ["3D", "3D"]
    assert view["scores"][0]["double_sweeps"] == 1
    assert view["scores"][0]["sweeps_made_points"] == 10
    assert view["scores"][3]["sweeps_conceded_points"] == -10  # the seat before (R4.2)
    plain = Deal.resume(RuleSet(), 2, 1, [["2C"], ["3C"]], [], [], 0)
    assert public_deal_view(plain)["partners"] == [None, None]
