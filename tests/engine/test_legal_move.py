"""Legal moves as frozen values with their facts (app/engine/moves.py ``LegalMove``).

What a legal move does (kind), what it puts in the pile (points, R6.1, V3)
and what it scores as a sweep (R4.2, R4.3) are the engine's answers; these
tests check them against the rules directly, not against the code's own
tables.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

from app.engine.deal import Deal
from app.engine.errors import EngineError
from app.engine.legal import legal_move_list
from app.engine.moves import LegalMove, Move
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack
from app.simulation import random_deal


def _position(hand: list[str], table: list[str], rules: RuleSet | None = None) -> Deal:
    return Deal.from_position(
        rules or RuleSet(), 2, 1, [hand, ["KH", "QH"][: len(hand)]], table, [], 0, opening=False
    )


def test_a_creep_takes_nothing_and_is_worth_nothing():
    """R3.4: a card that forms no group is laid on the table (E4: the 6 on 8 9 J)."""
    legal = _position(["6C", "8D"], ["8S", "9H", "JC"]).legal()
    creep = next(m for m in legal if m.card == "6C")
    assert creep == LegalMove("6C", (), "creep", 0, 0)


def test_a_capture_counts_the_played_card_and_the_taken_ones():
    """R6.1: 10D 3, 2S 2, AS 2, other spades and aces 1; V3: the 10D scores 0."""
    table = ["10D", "5S"]
    standard = _position(["10H", "4C"], table).legal()  # the 4C may creep (R3.5)
    assert standard[1] == LegalMove("10H", ("10D",), "capture", 3, 0)  # must take (R3.3)
    nordic = _position(["10H", "4C"], table, RuleSet(nordic=True)).legal()
    assert nordic[1] == LegalMove("10H", ("10D",), "capture", 0, 0)
    spade = _position(["AS", "4C"], ["AD", "KS"]).legal()  # AS (14) takes the K (13) + A (1)
    assert spade == (LegalMove("AS", ("AD", "KS"), "sweep", 2 + 1 + 1, 5),)


def test_a_double_sweep_is_worth_ten_and_an_ordinary_one_five():
    """R4.2, R4.3: a lone non-ace taken by its twin is a double; another suit is not."""
    legal = _position(["7H", "7C"], ["7H"]).legal()
    assert [(m.card, m.kind, m.sweep) for m in legal] == [
        ("7H", "double_sweep", 10),
        ("7C", "sweep", 5),
    ]


def test_legal_lists_the_same_moves_as_legal_moves_with_their_kinds():
    rng = random.Random(5)
    for players in (2, 4, 6):
        deal = random_deal(RuleSet(), players, rng)
        while not deal.is_over:
            legal = deal.legal()
            assert [m.move for m in legal] == deal.legal_moves()
            assert {m.move: m.kind for m in legal} == deal.legal_kinds()
            for m in legal:
                assert deal.check(m.card, m.take)[1] == m.kind  # the move check agrees
            pick = rng.choice(legal)
            deal.apply(pick.card, pick.take)


def test_a_position_function_gives_the_deals_legal_moves():
    """``legal_move_list`` needs no Deal: the rules, a hand and a table."""
    deal = Deal.from_pack(RuleSet(), 4, 0, shuffled_pack("position", 2))
    seat = deal.to_move
    assert seat is not None
    hand = list(reversed(deal.hands[seat]))  # any order: the moves come out canonical
    assert legal_move_list(deal.rules, hand, deal.table) == deal.legal()


def test_the_wire_form_is_the_views_legal_entry_and_reads_back():
    deal = Deal.from_pack(RuleSet(), 3, 2, shuffled_pack("wire", 2))
    legal = deal.legal()
    wire = json.loads(json.dumps([m.to_json() for m in legal]))
    assert wire == deal.legal_described()
    assert [set(w) for w in wire] == [{"card", "take", "kind", "points", "sweep"}] * len(wire)
    assert tuple(LegalMove.from_json(w) for w in wire) == legal


@pytest.mark.parametrize(
    "data",
    [
        {"card": "7C", "take": []},
        {"card": "ZZ", "take": [], "kind": "creep", "points": 0, "sweep": 0},
        {"card": "7C", "take": ["7X"], "kind": "capture", "points": 0, "sweep": 0},
        {"card": "7C", "take": [], "kind": "build", "points": 0, "sweep": 0},
        {"card": "7C", "take": [], "kind": "creep", "points": "0", "sweep": 0},
        {"card": "7C", "take": [], "kind": "creep", "points": 0, "sweep": True},
    ],
)
def test_a_malformed_wire_move_is_an_engine_error(data):
    with pytest.raises(EngineError):
        LegalMove.from_json(data)


def test_a_legal_move_is_a_frozen_picklable_value():
    move = LegalMove("9D", ("2H", "7S"), "sweep", 1, 5)
    with pytest.raises(AttributeError):
        move.points = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(move)) == move
    assert move.move == Move("9D", ("2H", "7S")) and hash(move) == hash(
        LegalMove("9D", ("2H", "7S"), "sweep", 1, 5)
    )
