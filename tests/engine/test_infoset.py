"""A seat's information set and the deals resampled from it (app/engine/infoset.py)."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from app.engine.cards import hand_value
from app.engine.deal import Deal
from app.engine.errors import EngineError, SetupError
from app.engine.infoset import InformationSet
from app.engine.match import Match
from app.engine.results import LogEntry
from app.engine.rules import RuleSet
from app.engine.views import match_view
from app.simulation import random_deal


def _played(players: int, moves: int, seed: int, rules: RuleSet | None = None):
    rng = random.Random(seed)
    deal = random_deal(rules or RuleSet(), players, rng)
    for _ in range(moves):
        m = rng.choice(deal.legal_moves())
        deal.apply(m.card, m.take)
    return deal


@pytest.mark.parametrize("players,moves,seed", [(2, 0, 1), (3, 17, 2), (4, 33, 3), (6, 40, 4)])
def test_the_view_and_the_deal_give_the_same_information_set(players, moves, seed):
    deal = _played(players, moves, seed)
    seat = deal.to_move
    view = match_view(Match(deal.rules, players, deal.dealer), deal, seat, "playing", 1)
    assert InformationSet.from_view(view) == deal.information_set(seat)


@pytest.mark.parametrize(
    "rules",
    [RuleSet(picture_pairs=True), RuleSet(four_card_deal=True), RuleSet(partnership=True)],
    ids=["v9", "v7", "v1"],
)
@pytest.mark.parametrize("moves,seed", [(0, 5), (9, 6), (27, 7)])
def test_every_seats_view_gives_that_seats_information_set(rules, moves, seed):
    """Not only the seat to move, and under rules other than the defaults: the view's
    own seat, its rules and its dealer are read from the view, not assumed."""
    deal = _played(4, moves, seed, rules)
    match = Match(deal.rules, 4, deal.dealer)
    for seat in range(4):
        view = match_view(match, deal, seat, "playing", 1)
        got = InformationSet.from_view(view)
        assert got == deal.information_set(seat), seat
        assert got.rules == rules and got.seat == seat and got.hidden == len(got.unseen)


@pytest.mark.parametrize(
    "rules",
    [RuleSet(), RuleSet(picture_pairs=True), RuleSet(four_card_deal=True)],
    ids=["standard", "v9", "v7"],
)
def test_a_resampled_deal_differs_only_in_what_the_seat_cannot_see(rules):
    deal = _played(3, 20, 5, rules)
    seat = deal.to_move
    world = deal.resample_from_infostate(seat, random.Random(9))
    assert world.to_move == seat and world.hands[seat] == deal.hands[seat]
    assert world.table == deal.table and world.last_capturer == deal.last_capturer
    assert world.set_aside_spades == deal.set_aside_spades
    assert [len(h) for h in world.hands] == [len(h) for h in deal.hands]
    assert len(world.stock) == len(deal.stock)
    hidden = lambda d: Counter(  # noqa: E731
        [c for s, h in enumerate(d.hands) if s != seat for c in h] + d.stock
    )
    assert hidden(world) == hidden(deal)
    assert world.legal_moves() == deal.legal_moves()  # the seat's own choices are the same
    others = [deal.resample_from_infostate(seat, random.Random(i)) for i in range(5)]
    assert len({tuple(map(tuple, w.hands)) for w in others}) > 1  # the hidden cards move


def test_only_the_seat_to_move_is_resampled():
    deal = _played(2, 3, 6)
    with pytest.raises(SetupError):
        deal.resample_from_infostate(1 - deal.to_move, random.Random(1))


def test_known_gaps_keep_values_out_of_a_hand():
    deal = _played(2, 0, 7)
    seat = deal.to_move
    info = deal.information_set(seat)
    other = 1 - seat
    lacks = {other: frozenset(range(2, 8))}
    hands, stock = info.sample_hidden(random.Random(3), lacks)
    assert all(hand_value(c) not in lacks[other] for c in hands[other])
    assert Counter(hands[other] + stock) == Counter(info.unseen)


def test_the_information_set_keeps_the_deals_log():
    """Every play is public (the view's log), and the information set remembers it:
    the last player of R4.2 / R5.3 follows from it."""
    deal = _played(4, 13, 8)
    info = deal.information_set(deal.to_move)
    assert [e.to_json() for e in info.history] == [r.to_dict() for r in deal.results]
    assert info.last_player == deal.results[-1].seat == deal.last_player
    fresh = _played(3, 0, 9)
    assert fresh.information_set(fresh.to_move).last_player == fresh.dealer


def test_information_sets_of_one_deal_share_the_log_as_it_grows():
    """Asked for at every turn (the bots are), the log is built once, not per call."""
    deal = _played(2, 5, 10)
    first = deal.information_set(deal.to_move)
    m = deal.legal_moves()[0]
    deal.apply(m.card, m.take)
    second = deal.information_set(deal.to_move)
    assert len(second.history) == len(first.history) + 1
    assert all(a is b for a, b in zip(first.history, second.history))


def test_a_log_entry_reads_back_from_its_wire_form_and_refuses_junk():
    deal = _played(4, 20, 11)
    entries = deal.information_set(0).history
    assert tuple(LogEntry.from_json(e.to_json()) for e in entries) == entries
    for junk in (
        {"seat": 0, "card": "ZZ", "kind": "creep", "taken": []},
        {"seat": -1, "card": "2C", "kind": "creep", "taken": []},
        {"seat": 0, "card": "2C", "kind": "steal", "taken": []},
        {"card": "2C", "kind": "creep", "taken": []},
    ):
        with pytest.raises(EngineError):
            LogEntry.from_json(junk)


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(partnership=True, nordic=True)])
def test_an_information_set_pickles_for_a_worker_process(rules):
    """The server hands a seat's information set to a bot in another process."""
    deal = _played(4, 22, 12, rules)
    info = deal.information_set(deal.to_move)
    copy = pickle.loads(pickle.dumps(info))
    assert copy == info and copy.rules == rules and copy.history == info.history
    assert pickle.loads(pickle.dumps(deal.legal())) == deal.legal()


def test_a_world_from_the_information_set_is_the_deal_where_the_seat_looks():
    deal = _played(3, 14, 13)
    seat = deal.to_move
    info = deal.information_set(seat)
    hands, stock = info.sample_hidden(random.Random(4))
    world = Deal.from_information_set(info, hands, stock)
    assert world.information_set(seat).hand == info.hand
    assert world.legal() == deal.legal()
    assert (world.table, world.last_capturer) == (deal.table, deal.last_capturer)
    # the real hidden cards give the real deal's position back
    real = Deal.from_information_set(info, [list(h) for h in deal.hands], list(deal.stock))
    assert real.hands == deal.hands and real.stock == deal.stock


def test_a_resumed_deal_with_empty_hands_awards_the_set_aside_spades():
    """R5.1: the set-aside spade pictures go to the last capturer, also when the deal
    is resumed at its very end (nothing left to play)."""
    deal = Deal.resume(
        RuleSet(), 2, 0, [[], []], ["5H"], [], 1, last_capturer=0, set_aside_spades=["KS"]
    )
    assert deal.is_over and deal.award is not None
    assert deal.award.seat == 0 and sorted(deal.award.cards) == ["5H", "KS"]
    assert deal.scores[0].card_points == 1  # the KS (R6.1)
