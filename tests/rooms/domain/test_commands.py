"""The room commands as values (app/rooms/domain/commands.py): what a command checks by
itself, before any room is read, and the answers' shapes."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.errors import ErrorCode, ServiceError
from app.engine.errors import RulesError
from app.engine.rules import RuleSet
from app.rooms.domain.commands import NewRoom, PlayCard
from app.rooms.domain.options import RoomOptions
from app.rooms.domain.results import PlayAnswer, RoomCreated


def plan(players: int = 3, bots: int = 0, seat: int = 0, **rules: bool) -> NewRoom:
    return NewRoom(players, "Ann", RuleSet(**rules), bots, RoomOptions(), seat=seat)


@pytest.mark.parametrize(
    ("players", "bots", "seat"),
    [(3, 0, 0), (3, 2, 0), (2, 1, 1), (4, 3, 2), (6, 5, 5)],
)
def test_a_room_that_can_be_passes_its_check(players: int, bots: int, seat: int) -> None:
    plan(players, bots, seat).check()


@pytest.mark.parametrize(
    ("players", "bots", "seat", "says"),
    [
        (3, 3, 0, "bots must be 0..2"),  # nobody left for the maker
        (3, -1, 0, "bots must be 0..2"),
        (3, 1, 1, "the maker sits elsewhere only among bots"),  # a person in seat 0
        (3, 2, 3, "the maker sits elsewhere only among bots"),  # no such seat
        (3, 2, -1, "the maker sits elsewhere only among bots"),
    ],
)
def test_a_room_that_cannot_be_is_refused_as_a_bad_request(
    players: int, bots: int, seat: int, says: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        plan(players, bots, seat).check()
    assert refused.value.code == ErrorCode.BAD_REQUEST
    assert refused.value.message == says


def ladder_plan(
    players: int, bots: int, seat: int, others: tuple[tuple[int, str], ...], outside: bool = True
) -> NewRoom:
    """A room made by bot account "robo" with other bot accounts seated with it."""
    return NewRoom(players, "robo", RuleSet(), bots, RoomOptions(), seat=seat,
                   outside_bot=outside, outside_seats=others)  # fmt: skip


@pytest.mark.parametrize(
    ("players", "bots", "seat", "others"),
    [(2, 0, 0, ((1, "ada"),)), (3, 1, 1, ((2, "ada"),)), (4, 1, 3, ((0, "ada"), (2, "bo")))],
)
def test_bot_accounts_seated_together_with_built_in_bots_in_the_rest_pass(
    players: int, bots: int, seat: int, others: tuple[tuple[int, str], ...]
) -> None:
    ladder_plan(players, bots, seat, others).check()


@pytest.mark.parametrize(
    ("players", "bots", "seat", "others", "outside", "says"),
    [
        (3, 1, 0, ((0, "ada"),), True, "each bot account needs a seat of its own"),
        (3, 1, 0, ((3, "ada"),), True, "each bot account needs a seat of its own"),
        (3, 1, 0, ((-1, "ada"),), True, "each bot account needs a seat of its own"),
        (3, 0, 0, ((1, "ada"), (1, "bo")), True, "each bot account needs a seat of its own"),
        (3, 1, 0, ((1, "robo"),), True, "each seat needs a name of its own"),
        (3, 0, 0, ((1, "ada"),), True, "built-in bots take every other seat"),  # a free seat
        (3, 2, 0, ((1, "ada"),), True, "built-in bots take every other seat"),  # one too many
        (3, 1, 0, ((1, "ada"),), False, "bot accounts sit with a bot account only"),
    ],
)
def test_bot_accounts_seated_together_are_refused_where_the_seats_do_not_add_up(
    players: int, bots: int, seat: int, others: tuple[tuple[int, str], ...], outside: bool,
    says: str,
) -> None:  # fmt: skip
    with pytest.raises(ServiceError) as refused:
        ladder_plan(players, bots, seat, others, outside).check()
    assert refused.value.code == ErrorCode.BAD_REQUEST
    assert refused.value.message == says


def test_rules_the_player_count_cannot_play_are_refused_first() -> None:
    with pytest.raises(RulesError):
        plan(7).check()  # R1.3: two to six
    with pytest.raises(RulesError):
        plan(3, bots=5, single_pack=False, partnership=True).check()  # rules before bots


def test_a_plan_is_a_value() -> None:
    one = plan(3, 2)
    assert one == plan(3, 2) and one != plan(3, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.bots = 0  # type: ignore[misc]


def test_a_persons_play_is_stored_under_its_seat_and_a_server_move_under_its_own_id() -> None:
    assert PlayCard("r", 1, "7H", play_id="m1").key == "1:m1"
    assert PlayCard("r", 1, "7H").key is None  # never recognised as a resend
    server = PlayCard("r", 1, "7H", server="srv:clock:4", at_seq=4)
    assert server.key == "srv:clock:4"
    # whatever a client calls its play, its key starts with its seat: never a server id
    assert not PlayCard("r", 0, "7H", play_id="srv:clock:4").key.startswith("srv:")  # type: ignore[union-attr]


def test_a_play_is_a_clients_or_the_servers_never_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        PlayCard("r", 1, "7H", play_id="m1", server="srv:bot:3")


def test_what_a_play_takes_is_a_tuple_whatever_it_was_given() -> None:
    play = PlayCard("r", 0, "TD", ["5D", "5S"])  # type: ignore[arg-type]
    assert play.take == ("5D", "5S")
    assert play == PlayCard("r", 0, "TD", ("5D", "5S"))


def test_answers_are_read_by_name_and_compared_as_values() -> None:
    made = RoomCreated("r" * 32, "ABCDE", 0, "t")
    assert (made.room_id, made.code, made.seat, made.token) == ("r" * 32, "ABCDE", 0, "t")
    assert PlayAnswer(5, duplicate=True) == PlayAnswer(5, True) != PlayAnswer(5, False)
    assert dataclasses.asdict(made) == {
        "room_id": "r" * 32,
        "code": "ABCDE",
        "seat": 0,
        "token": "t",
        "others": (),
    }, "no other bot account's seat unless one was asked for"
