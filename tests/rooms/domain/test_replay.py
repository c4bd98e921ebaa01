"""A finished deal replayed from what a store keeps: its record and every position.

The replay viewer and the history serve these (app/review/archive.py); the server
tests see them over HTTP, these check each field here, without a server.
"""

from __future__ import annotations

import random

import pytest

from app.engine import scenario
from app.engine.cards import sorted_cards
from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import commitment, shuffled_pack
from app.engine.views import public_deal_view
from app.rooms.domain.record_types import RecordMove, StoredDeal
from app.rooms.domain.records import deal_record
from app.rooms.domain.replay import DROPPED, award, positions


def finished(
    players: int = 3, dealer: int = 1, seed: str = "replay-1", **rules: object
) -> StoredDeal:
    """A deal played to its end with random legal moves, as a store keeps it."""
    ruleset = RuleSet.from_dict(rules)
    pack = shuffled_pack(seed, ruleset.copies)
    deal = Deal.from_pack(ruleset, players, dealer, pack)
    rng = random.Random(seed)
    moves: list[RecordMove] = []
    while not deal.is_over:
        m = rng.choice(deal.legal_moves())
        deal.apply(m.card, list(m.take))
        moves.append({"card": m.card, "take": list(m.take)})
    return {
        "room_id": "a" * 32,
        "match_no": 2,
        "deal_no": 3,
        "rules": ruleset.to_dict(),
        "pack": pack,
        "dealer": dealer,
        "players": players,
        "seed": seed,
        "commitment": commitment(seed),
        "scores": deal.scores_list(),
        "totals": deal.totals(),
        "moves": moves,
    }


@pytest.mark.parametrize(("players", "rules"), [(3, {}), (2, {"single_pack": True})])
def test_every_position_is_the_deal_after_that_many_moves(
    players: int, rules: dict[str, object]
) -> None:
    stored = finished(players, 1, "replay-1", **rules)
    out = positions(stored)
    assert len(out) == len(stored["moves"]) + 1
    reference = Deal.from_pack(
        RuleSet.from_dict(stored["rules"]), stored["players"], stored["dealer"], stored["pack"]
    )
    assert out[0]["step"] == 0 and out[0]["move"] is None
    for step, position in enumerate(out):
        if step > 0:
            move = stored["moves"][step - 1]
            seat = reference.to_move
            result = reference.apply(move["card"], move["take"])
            assert position["move"] == {
                "seat": seat,
                "card": move["card"],
                "kind": result.kind,
                "taken": list(result.taken),
                "conceded_by": result.conceded_by,
                "packet_dealt": result.packet_dealt,
            }
        assert position["step"] == step
        assert position["hands"] == [sorted_cards(h) for h in reference.hands]
        assert position["table"] == list(reference.table)
        assert position["to_move"] == reference.to_move
        assert position["stock_count"] == len(reference.stock)
        for key in DROPPED:
            assert key not in position, f"{key} is in the record once, not in every position"
        view = [k for k in public_deal_view(reference) if k not in DROPPED]
        assert list(position) == [*view, "step", "hands", "move"], "every other key, in order"
    assert sum(len(h) for h in out[-1]["hands"]) == 0, "the last position has every hand played"
    assert any(p["move"]["packet_dealt"] for p in out[1:]), "packets are dealt during the deal"
    assert {p["move"]["seat"] for p in out[1:]} == set(range(players))


def test_moves_stored_without_their_take_replay_as_creeps() -> None:
    """Rows of earlier versions leave an empty ``take`` out (a creep)."""
    stored = finished(seed="replay-2")
    bare = [
        {"card": m["card"]} if not m["take"] else m  # type: ignore[typeddict-item]
        for m in stored["moves"]
    ]
    assert len([m for m in bare if "take" not in m]) > 0
    assert positions({**stored, "moves": bare}) == positions(stored)
    assert award({**stored, "moves": bare}) == award(stored)


def test_moves_that_stop_before_the_end_are_refused_not_shown() -> None:
    stored = finished(seed="replay-3")
    with pytest.raises(ValueError, match="do not finish"):
        positions({**stored, "moves": stored["moves"][:-1]})


def test_the_award_is_the_replayed_deals_and_none_before_its_end() -> None:
    stored = finished(seed="replay-4")
    deal = Deal.from_pack(
        RuleSet.from_dict(stored["rules"]), stored["players"], stored["dealer"], stored["pack"]
    )
    for m in stored["moves"]:
        deal.apply(m["card"], m["take"])
    assert deal.award is not None
    assert award(stored) == deal.award.to_dict()
    assert award({**stored, "moves": stored["moves"][:-1]}) is None


@pytest.mark.parametrize("rules", [{}, {"partnership": True, "match_deals": 2}])
def test_a_record_is_a_scenario_that_replays_to_its_scores(rules: dict[str, object]) -> None:
    players = 4 if rules else 3
    stored = finished(players=players, dealer=2, seed="record-1", **rules)
    record = deal_record(stored)
    opening = Deal.from_pack(RuleSet.from_dict(stored["rules"]), players, 2, stored["pack"]).opening
    assert record["name"] == f"room {'a' * 32} match 2 deal 3"
    assert record["rules"] == {k: v for k, v in rules.items()}, "only the options chosen"
    assert RuleSet.from_dict(record["rules"]) == RuleSet.from_dict(stored["rules"])
    assert record["players"] == players and record["dealer"] == 2
    assert record["hands"] == [list(h) for h in opening.hands]
    assert record["table"] == list(opening.table) and record["stock"] == list(opening.stock)
    dealt = sum(map(len, record["hands"])) + len(record["table"]) + len(record["stock"])
    assert dealt == len(stored["pack"]), "every card of the pack is somewhere"
    assert (record["deal_no"], record["match_no"]) == (3, 2)
    assert record["moves"] == stored["moves"]
    assert record["scores"] == stored["scores"] and record["totals"] == stored["totals"]
    assert record["award"] == award(stored) and record["award"] is not None
    assert record["seed"] == "record-1" and record["commitment"] == commitment("record-1")
    replayed = scenario.run(
        {k: record[k] for k in ("rules", "players", "dealer", "hands", "table", "stock", "moves")}  # type: ignore[literal-required]
    )
    assert [s["total"] for s in replayed["scores"]] == record["totals"]
