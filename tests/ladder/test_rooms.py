"""Outside bots' packs in rooms (app/ladder/rooms.py), the parts that need no server:
how a room seats a table's outside bots and levels, the schedule skipping the others,
a room's rules, and a room's deal record taken back only when it is the pack's deal
and replays to its scores.  tests/server/test_ladder_outside.py plays such packs in a
real server."""

from __future__ import annotations

import copy

import pytest

from app.engine.rules import RuleSet
from app.ladder.entrants import Entrant
from app.ladder.play import play_pack
from app.ladder.rooms import LadderRoomError, OutsideBot, ladder_room, played_from, room_rules
from app.ladder.schedule import LadderConfig, PackPlan, key_of, next_table
from app.rooms.domain.record_types import DealRecord

RANDOM, GREEDY = Entrant.level("random"), Entrant.level("greedy")
BOT, OTHER = Entrant("outside", "a1"), Entrant("outside", "a2")


ACCOUNTS = {"outside:a1": OutsideBot("a1", "one_bot"), "outside:a2": OutsideBot("a2", "two_bot")}


def test_a_room_seats_one_outside_bot_beside_levels_each_at_its_own() -> None:
    plan = PackPlan("ab" * 16, 3, RuleSet(), (BOT, RANDOM, GREEDY))
    for index, seats in enumerate(plan.seatings()):
        room = ladder_room(plan, index, seats, ACCOUNTS, 20.0)
        room.check()
        assert (room.name, room.seat, room.outside_bot, room.outside_seats, room.bots) == (
            "one_bot", seats.index("outside:a1"), True, (), 2,
        )  # fmt: skip
        assert room.options.seat_levels == tuple("" if e == BOT.id else e for e in seats)
        assert room.options.preset is not None and room.options.preset.seed == plan.seed


def test_a_room_seats_every_outside_bot_of_its_table_at_once() -> None:
    """Two outside bots and a level: the first in seat order makes the room and the
    other is seated with it (no free seat for anyone else in between)."""
    plan = PackPlan("ab" * 16, 3, RuleSet(), (BOT, OTHER, GREEDY))
    for index, seats in enumerate(plan.seatings()):
        room = ladder_room(plan, index, seats, ACCOUNTS, 20.0)
        room.check()
        mine = {seats.index(BOT.id): "one_bot", seats.index(OTHER.id): "two_bot"}
        first, second = sorted(mine)
        assert (room.seat, room.name) == (first, mine[first])
        assert room.outside_seats == ((second, mine[second]),)
        assert room.bots == 1 and room.options.level_of(seats.index("greedy"), True) == "greedy"
    only_bots = PackPlan("cd" * 16, 2, RuleSet(), (BOT, OTHER))
    room = ladder_room(only_bots, 1, only_bots.seatings()[1], ACCOUNTS, 20.0)
    room.check()
    assert (room.seat, room.outside_seats, room.bots) == (0, ((1, "one_bot"),), 0)
    with pytest.raises(LadderRoomError, match="in-process"):
        ladder_room(PackPlan("ab" * 16, 2, RuleSet(), (RANDOM, GREEDY)), 0, ["random", "greedy"],
                    ACCOUNTS, 20.0)  # fmt: skip


def test_the_schedule_skips_tables_not_allowed_and_says_when_none_is() -> None:
    config = LadderConfig(2, RuleSet(), (BOT, RANDOM, GREEDY))
    assert key_of(next_table(config, {})) == ("outside:a1", "random")
    offline = lambda t: BOT not in t  # noqa: E731
    assert key_of(next_table(config, {}, offline)) == ("random", "greedy")
    with pytest.raises(ValueError, match="no ladder table"):
        next_table(LadderConfig(2, RuleSet(), (BOT, RANDOM)), {}, offline)


def test_a_room_plays_one_deal_of_the_ladders_rules() -> None:
    rules = RuleSet(match_limit=50, tie_break_deal=True, nordic=True)
    one = room_rules(rules)
    assert (one.match_deals, one.match_limit, one.tie_break_deal, one.nordic) == (
        1,
        None,
        False,
        True,
    )
    one.validate_for(3)


def _record(plan: PackPlan, index: int) -> DealRecord:
    """Deal ``index`` of the pack as a room's record gives it (played in-process)."""
    played = play_pack(plan, 4, pause=lambda: None)[index]
    return {  # the fields played_from reads, and the rest as a room fills them
        "name": "", "rules": {}, "players": plan.players, "dealer": 0, "hands": [],
        "table": [], "stock": [], "moves": played.moves, "deal_no": 1, "match_no": 1,
        "scores": played.scores, "totals": played.totals, "award": None,
        "seed": plan.seed, "commitment": "", "assists": [],
    }  # fmt: skip


def test_a_rooms_record_is_taken_only_as_the_packs_deal_replayed() -> None:
    plan = PackPlan("ab" * 16, 2, RuleSet(), (RANDOM, GREEDY))
    record = _record(plan, 1)
    played = played_from(plan, 1, record)
    assert (played.index, played.moves, played.scores) == (1, record["moves"], record["scores"])
    assert played.totals == [s["total"] for s in record["scores"]]
    other_seed = {**record, "seed": "cd" * 16}
    with pytest.raises(LadderRoomError, match="another deal"):
        played_from(plan, 1, other_seed)
    with pytest.raises(LadderRoomError, match="another deal"):
        played_from(plan, 1, {**record, "dealer": 1})
    lied = copy.deepcopy(record)
    assert lied["scores"] is not None
    lied["scores"][0]["total"] += 1
    with pytest.raises(LadderRoomError, match="does not replay"):
        played_from(plan, 1, lied)
    swapped = {**record, "moves": record["moves"][1:]}  # a move out of turn
    with pytest.raises(LadderRoomError, match="does not replay"):
        played_from(plan, 1, swapped)
    cut = {**record, "moves": record["moves"][:-1]}
    with pytest.raises(LadderRoomError, match="does not replay"):
        played_from(plan, 1, cut)
