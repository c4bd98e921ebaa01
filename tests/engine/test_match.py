"""A match (RULES.md R6.4, V1, V8): dealer rotation, cumulative totals, winners."""

from __future__ import annotations

import random

import pytest

from app.engine.errors import RulesError
from app.engine.match import Match
from app.engine.rules import RuleSet
from app.simulation import check_invariants, play_random, random_deal


def test_the_deal_passes_to_the_left():
    """R2.1: the dealer of each new deal is the previous dealer + 1."""
    match = Match(RuleSet(), 4, first_dealer=2)
    assert [match.dealer_for(n) for n in range(1, 7)] == [2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_match_lasts_one_dealer_rotation(players):
    """R6.4: n deals for n players."""
    match = Match(RuleSet(), players, 0)
    assert match.deals_total == players
    for n in range(players):
        assert not match.is_over
        assert match.next_deal_no == n + 1
        match.record_deal([0] * players)
    assert match.is_over
    assert match.deals_played == players


def test_totals_are_cumulative_over_the_deals():
    match = Match(RuleSet(), 3, 0)
    match.record_deal([10, 20, 12])
    match.record_deal([-5, 30, 17])
    assert match.cumulative == [5, 50, 29]
    assert match.winners() == []  # not over yet
    match.record_deal([0, 0, 42])
    assert match.cumulative == [5, 50, 71]
    assert match.winners() == [0]  # the lowest total wins


def test_ties_share_the_win():
    """R6.4: ties share the win."""
    match = Match(RuleSet(), 2, 0)
    match.record_deal([21, 21])
    match.record_deal([21, 21])
    assert match.winners() == [0, 1]


def test_a_fixed_number_of_deals():
    """V8: a fixed number of deals instead of one rotation."""
    match = Match(RuleSet(match_deals=6), 4, 1)
    assert match.deals_total == 6
    for _ in range(5):
        match.record_deal([10, 10, 10, 12])
    assert not match.is_over
    match.record_deal([10, 10, 10, 12])
    assert match.is_over
    assert match.winners() == [0, 1, 2]
    assert match.dealer_for(6) == (1 + 5) % 4


def test_a_points_limit_ends_the_match_at_the_end_of_a_deal():
    """V8: play until a total reaches the limit at the end of a deal; lowest wins."""
    match = Match(RuleSet(match_limit=100), 3, 0)
    assert match.deals_total is None
    match.record_deal([40, 1, 1])
    match.record_deal([40, 1, 1])
    assert not match.is_over
    match.record_deal([20, 10, 12])
    assert match.cumulative == [100, 12, 14]
    assert match.is_over
    assert match.winners() == [1]


def test_partnership_adds_partners_and_a_team_wins():
    """V1: partners' scores are added (0+2, 1+3); both partners share the win."""
    match = Match(RuleSet(partnership=True), 4, 0)
    for totals in ([10, 5, 6, 21], [0, 10, 5, 6], [7, 7, 7, 7], [2, 3, 4, 5]):
        match.record_deal(totals)
    assert match.team_cumulative == [
        10 + 6 + 0 + 5 + 7 + 7 + 2 + 4,
        5 + 21 + 10 + 6 + 7 + 7 + 3 + 5,
    ]
    assert match.is_over
    assert match.winners() == [0, 2]


def test_partnership_ties_share_the_win_between_teams():
    match = Match(RuleSet(partnership=True), 4, 0)
    for _ in range(4):
        match.record_deal([10, 11, 11, 10])
    assert match.winners() == [0, 1, 2, 3]


def test_partnership_points_limit_counts_team_totals():
    """V1 + V8: the team total reaching the limit ends the match."""
    match = Match(RuleSet(partnership=True, match_limit=50), 4, 0)
    match.record_deal([20, 0, 20, 2])
    assert not match.is_over  # team 0 has 40
    match.record_deal([5, 0, 5, 0])
    assert match.is_over
    assert match.winners() == [1, 3]


def test_recording_after_the_end_or_with_wrong_totals_is_an_error():
    match = Match(RuleSet(), 2, 0)
    with pytest.raises(ValueError):
        match.record_deal([1, 2, 3])
    match.record_deal([1, 2])
    match.record_deal([1, 2])
    with pytest.raises(ValueError):
        match.record_deal([1, 2])


def test_a_match_needs_a_valid_rule_set_and_first_dealer():
    with pytest.raises(RulesError):
        Match(RuleSet(partnership=True), 3, 0)
    with pytest.raises(ValueError):
        Match(RuleSet(), 3, 3)


@pytest.mark.parametrize("players", [2, 4])
def test_a_played_match_rotates_dealers_and_adds_up(players):
    """R6.3, R6.4: real deals, one per dealer; the totals add up to 42 per deal."""
    rng = random.Random(players)
    rules = RuleSet()
    match = Match(rules, players, first_dealer=1)
    dealers = []
    while not match.is_over:
        deal = random_deal(rules, players, rng)
        dealers.append(match.dealer_for(match.next_deal_no))
        play_random(deal, rng)
        check_invariants(deal)
        match.record_deal(deal.totals())
    assert dealers == [(1 + i) % players for i in range(players)]
    assert sum(match.cumulative) == 42 * players
    assert match.winners()


# ------------------------------------------------------------- V10 tie-break deal


def test_a_tie_on_the_lowest_total_is_shared_without_the_option():
    """R6.4: ties share the win."""
    match = Match(RuleSet(), 2, 0)
    match.record_deal([20, 22])
    match.record_deal([21, 19])
    assert match.is_over and match.winners() == [0, 1]
    assert not match.tie_break


def test_a_tie_on_the_lowest_total_calls_one_more_deal():
    """V10: one more deal by the whole table; the dealer moves on as usual."""
    match = Match(RuleSet(tie_break_deal=True), 3, 1)
    for totals in ([10, 12, 20], [12, 10, 8]):
        match.record_deal(totals)
    assert match.deals_played == 2
    match.record_deal([0, 0, 0])  # after 3 deals: 22, 22, 28 -> a tie for the lowest
    assert not match.is_over and match.tie_break
    assert match.deals_total == 4
    assert match.winners() == []
    assert match.dealer_for(match.next_deal_no) == (1 + 3) % 3  # the dealer moves on
    match.record_deal([5, 3, 34])
    assert match.is_over and match.winners() == [1]
    with pytest.raises(ValueError):
        match.record_deal([0, 0, 42])


def test_a_tie_that_remains_after_the_tie_break_deal_is_shared():
    match = Match(RuleSet(tie_break_deal=True), 2, 0)
    match.record_deal([21, 21])
    match.record_deal([21, 21])
    assert not match.is_over
    match.record_deal([21, 21])
    assert match.is_over and match.winners() == [0, 1]


def test_no_tie_break_deal_when_the_lowest_total_is_alone():
    match = Match(RuleSet(tie_break_deal=True), 3, 0)
    for _ in range(3):
        match.record_deal([10, 16, 16])  # a tie, but not for the lowest
    assert match.is_over and not match.tie_break and match.winners() == [0]


def test_the_tie_break_deal_follows_a_points_limit_and_partnerships():
    """V8 + V10: the limit ends the match; a tie between the teams' totals is broken."""
    match = Match(RuleSet(tie_break_deal=True, partnership=True, match_limit=30), 4, 0)
    match.record_deal([10, 11, 11, 10])  # teams 21 / 21, nobody at 30
    assert not match.is_over
    match.record_deal([5, 5, 5, 5])  # teams 31 / 31: the limit is reached, tied
    assert not match.is_over and match.tie_break
    match.record_deal([0, 2, 0, 0])
    assert match.is_over and match.winners() == [0, 2]
