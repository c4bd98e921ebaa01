"""What-ifs as pure functions (app/review/whatif.py, app/review/evaluator.py): a branch
replays the stored deal and then its moves, an illegal move is refused with the
engine's code, and every legal move of a branch's position gets its expected points
from the evaluator, which prefers the move that leaves the next player a sweep."""

from __future__ import annotations

import pytest

from app.core.errors import ServiceError
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.review.evaluator import SampledEvaluator
from app.review.whatif import branch_of, replay, seed_of

from .helpers import stored_deal

FAST = SampledEvaluator(worlds=3, budget_s=30)


def test_a_branch_replays_the_real_moves_then_its_own() -> None:
    stored = stored_deal()
    deal, _ = replay(stored, 4, [])
    other = next(m for m in deal.legal() if m.card != stored["moves"][4]["card"])
    move = {"card": other.card, "take": sorted(other.take)}
    branch = branch_of(stored, 4, [move], FAST, 1)
    assert branch["at"] == 4 and branch["moves"] == [move]
    assert branch["position"]["step"] == 5 and branch["position"]["move"]["card"] == other.card
    after, _ = replay(stored, 4, [move])
    assert [(m["card"], m["take"]) for m in branch["legal"]] == [
        (m.card, list(m.take)) for m in after.legal()
    ]
    assert all(isinstance(m["expected"], float) for m in branch["legal"])


def test_an_illegal_branch_move_is_refused_with_the_engines_code() -> None:
    stored = stored_deal()
    deal, _ = replay(stored, 0, [])
    assert deal.to_move is not None
    theirs = deal.hands[(deal.to_move + 1) % 2][0]
    with pytest.raises(ServiceError) as err:
        replay(stored, 0, [{"card": theirs, "take": []}])
    assert err.value.code == "not_in_hand"
    with pytest.raises(ServiceError) as err:
        replay(stored, len(stored["moves"]) + 1, [])
    assert err.value.code == "bad_message"
    last, _ = replay(stored, len(stored["moves"]), [])
    assert last.is_over
    with pytest.raises(ServiceError) as err:
        replay(stored, len(stored["moves"]), [{"card": "2H", "take": []}])
    assert err.value.code == "deal_over"


def test_the_same_position_gets_the_same_numbers() -> None:
    stored = stored_deal()
    a = branch_of(stored, 6, [], FAST, seed_of("r1", 6, []))
    b = branch_of(stored, 6, [], FAST, seed_of("r1", 6, []))
    assert a["legal"] == b["legal"]


def test_setting_up_a_sweep_for_the_next_player_is_expected_to_pay() -> None:
    """Last cards, two players: creeping the 5 onto the 4 leaves "tabbe på 9" for a
    player who must then sweep (R4.1): +5 to them, -5 to the creeper."""
    deal = Deal.from_position(
        RuleSet(), 2, 1, [["5H", "KC"], ["9D", "8C"]], ["4S"], to_move=0, opening=False
    )
    legal = deal.legal()
    expected = FAST(deal.information_set(0), legal, 7)
    by_card = {m.card: e for m, e in zip(legal, expected, strict=True)}
    assert by_card["5H"] < by_card["KC"]


def test_the_last_play_is_worth_the_seats_final_score() -> None:
    """A sampled world's deal starts at 0 points; the seat's points so far are added."""
    stored = stored_deal(9)
    deal, _ = replay(stored, len(stored["moves"]) - 1, [])
    seat = deal.to_move
    assert seat is not None and deal.scores[seat].total != 0
    (value,) = FAST(deal.information_set(seat), deal.legal(), 1)
    last = stored["moves"][-1]
    deal.apply(last["card"], last["take"])
    assert value == deal.scores[seat].total
