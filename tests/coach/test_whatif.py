"""The coach's expected points for a review's what-ifs (app/coach/whatif.py): every legal
move gets a number, from the seat's information only, the same for the same seed, its
points so far counted; and the review's branches carry them."""

from __future__ import annotations

from app.coach.whatif import CoachEvaluator
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.review.whatif import branch_of, replay, seed_of
from tests.bots.helpers import knowing, twin_deals
from tests.review.helpers import stored_deal

from .helpers import bot_deal

QUICK = CoachEvaluator(samples=12)


def test_every_legal_move_of_a_branch_gets_the_coachs_number() -> None:
    stored = stored_deal()
    branch = branch_of(stored, 6, [], QUICK, seed_of("r1", 6, []))
    after, _ = replay(stored, 6, [])
    assert [(m["card"], m["take"]) for m in branch["legal"]] == [
        (m.card, list(m.take)) for m in after.legal()
    ]
    assert all(isinstance(m["expected"], float) for m in branch["legal"])
    again = branch_of(stored, 6, [], QUICK, seed_of("r1", 6, []))
    assert again["legal"] == branch["legal"], "the same position, the same numbers"


def test_setting_up_a_sweep_for_the_next_player_is_expected_to_pay() -> None:
    """Last cards, two players: creeping the 5 onto the 4 leaves "tabbe på 9" for a
    player who must then sweep (R4.1)."""
    deal = Deal.from_position(
        RuleSet(), 2, 1, [["5H", "KC"], ["9D", "8C"]], ["4S"], to_move=0, opening=False
    )
    legal = deal.legal()
    expected = QUICK(deal.information_set(0), legal, 7)
    by_card = {m.card: e for m, e in zip(legal, expected, strict=True)}
    assert by_card["5H"] < by_card["KC"]


def test_the_last_play_is_worth_the_final_score() -> None:
    """The seat's points so far are counted once: with one play left nothing is hidden,
    and its number is the score the seat ends the deal with."""
    stored = bot_deal(["greedy", "random", "greedy", "greedy"], seed=5)
    deal, _ = replay(stored, len(stored["moves"]) - 1, [])
    seat = deal.to_move
    assert seat is not None and deal.scores[seat].total != 0
    (value,) = QUICK(deal.information_set(seat), deal.legal(), 1)
    assert value == stored["totals"][seat]


def test_partners_count_their_team_points() -> None:
    """Under V1 the number is the team's (R6.2): both partners' points so far."""
    rules = RuleSet(partnership=True)
    stored = bot_deal(["greedy", "greedy", "random", "greedy"], seed=4, rules=rules)
    deal, _ = replay(stored, len(stored["moves"]) - 1, [])
    seat = deal.to_move
    assert seat is not None
    (value,) = QUICK(deal.information_set(seat), deal.legal(), 1)
    team = [s for s in range(4) if rules.team_of(s) == rules.team_of(seat)]
    assert value == sum(stored["totals"][s] for s in team)


def test_hidden_cards_do_not_change_the_numbers() -> None:
    deal_a, deal_b = twin_deals("coach-whatif-hidden", 2, 9)
    info_a, legal_a = knowing(deal_a)
    info_b, legal_b = knowing(deal_b)
    assert info_a == info_b and legal_a == legal_b
    assert QUICK(info_a, legal_a, 3) == QUICK(info_b, legal_b, 3)
    assert QUICK(deal_a.information_set(2), legal_a, 3) == QUICK(
        deal_b.information_set(2), legal_b, 3
    )
