"""GET /api/rules and the rules body of POST /api/rooms: one catalogue, from the engine.

Against a real server process (tests/server/harness.py): the catalogue it
serves is the engine's, and a room with an option out of the catalogue's
range, or with options the engine cannot play together, gets a 422
{"code", "message"} and no room.
"""

from __future__ import annotations

import pytest

from app.bots import LEVELS
from app.engine.facts import rules_catalogue
from app.engine.rules import MATCH_NUMBER_MAX, OPTION_BY_NAME, RULE_OPTIONS
from tests import fetch
from tests.server.harness import ServerProcess


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


def test_the_catalogue_is_served_as_the_engine_defines_it(server: ServerProcess) -> None:
    r = fetch.get(server.url + "/api/rules", timeout=10)
    assert r.status_code == 200
    body = r.json()
    assert body == {**rules_catalogue(), "bot_levels": list(LEVELS)}
    names = [o["name"] for o in body["options"]]
    assert names == [o.name for o in RULE_OPTIONS]
    assert {"picture_pairs", "tie_break_deal"} <= set(names)  # V9, V10
    by_name = {o["name"]: o for o in body["options"]}
    assert by_name["partnership"]["players"] == [4]  # V1
    assert by_name["single_pack"]["players"] == [2]  # V2
    assert by_name["four_card_deal"]["players"] == [2, 3, 4]  # V7
    assert by_name["match_deals"]["maximum"] == MATCH_NUMBER_MAX
    assert by_name["match_deals"]["incompatible"] == ["match_limit"]


BAD_RULES: list[tuple[dict[str, object], int, str]] = [
    ({"match_deals": MATCH_NUMBER_MAX + 1}, 2, "match_deals"),
    ({"match_limit": 0}, 2, "match_limit"),
    ({"picture_pairs": "yes"}, 2, "picture_pairs"),
    ({"no_such_rule": True}, 2, "no_such_rule"),
    ({"match_deals": 6, "match_limit": 100}, 2, "match_limit"),
    ({"partnership": True}, 3, "partnership"),
    ({"single_pack": True}, 4, "single pack"),
]


def test_a_bad_rule_option_is_refused_with_code_and_message(server: ServerProcess) -> None:
    """One server for all cases (each would otherwise start its own)."""
    for rules, players, mentions in BAD_RULES:
        body = {"players": players, "name": "Ann", "rules": rules}
        r = fetch.post(server.url + "/api/rooms", json=body, timeout=10)
        assert r.status_code == 422, (rules, r.text)
        error = r.json()
        assert set(error) == {"code", "message"}
        assert error["code"] == "bad_request"
        assert mentions in error["message"], (rules, error)


def test_the_range_in_the_message_is_the_catalogues(server: ServerProcess) -> None:
    """The API caps match_deals where the engine does (it once said 100, the engine 1000)."""
    option = OPTION_BY_NAME["match_deals"]
    ok = fetch.post(
        server.url + "/api/rooms",
        json={"players": 2, "name": "Ann", "rules": {"match_deals": option.maximum}},
        timeout=10,
    )
    assert ok.status_code == 201, ok.text
    bad = fetch.post(
        server.url + "/api/rooms",
        json={"players": 2, "name": "Ann", "rules": {"match_deals": option.maximum + 1}},
        timeout=10,
    )
    assert bad.status_code == 422
    assert str(option.maximum) in bad.json()["message"]


def test_v9_and_v10_flow_through_to_the_room(server: ServerProcess) -> None:
    rules = {"picture_pairs": True, "tie_break_deal": True}
    made = fetch.post(
        server.url + "/api/rooms", json={"players": 2, "name": "Ann", "rules": rules}, timeout=10
    )
    assert made.status_code == 201, made.text
    summary = fetch.get(f"{server.url}/api/rooms/{made.json()['room_id']}", timeout=10).json()
    assert summary["rules"]["picture_pairs"] is True
    assert summary["rules"]["tie_break_deal"] is True
