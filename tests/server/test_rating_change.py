"""The rating change on a rated match's result, and provisional ratings (issue 47).

A real server (SQLite and PostgreSQL), a rated match of two new accounts played to the
end over the WebSocket: the match's rating gives each seat its ``change`` (what the
shown rating, ``mu``, moved) and each rating its ``provisional`` mark; a new player's
shown rating is never negative although the cautious mu - 3 sigma may be; the profile,
GET /api/me and the leaderboard mark the same ratings provisional.  A match not rated
yet answers ``pending`` without a failed request when asked so, and 404 otherwise.
"""

from __future__ import annotations

from tests import fetch
from tests.conftest import run_async
from tests.server.harness import ServerProcess
from tests.server.test_ratings import Person, _play_to_the_end, _rated, server

__all__ = ["server"]  # the module's server fixture: a server with LEADERBOARD_MIN_MATCHES 1


def test_the_result_carries_each_seats_change_and_the_provisional_mark(
    server: ServerProcess,
) -> None:
    ann, bo = Person(server.url, "ann"), Person(server.url, "bob")
    room = ann.create()
    rid = room["room_id"]
    pending = fetch.get(f"{server.url}/api/rooms/{rid}/matches/1/rating?pending=true", timeout=10)
    assert pending.status_code == 200  # not over yet: pending, and no failed request
    assert pending.json() == {"room_id": rid, "match_no": 1, "pending": True}
    assert (
        fetch.get(f"{server.url}/api/rooms/{rid}/matches/1/rating", timeout=10).status_code == 404
    )
    bad = fetch.get(f"{server.url}/api/rooms/{rid}/matches/1/rating?pending=maybe", timeout=10)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_request"

    seat = bo.join(rid)
    totals = run_async(_play_to_the_end(server, rid, [room["token"], seat["token"]]))
    _rated(ann)
    _rated(bo)
    result = fetch.get(f"{server.url}/api/rooms/{rid}/matches/1/rating?pending=true", timeout=10)
    body = result.json()
    assert body["pending"] is False and body["rated"] is True
    by_seat = {s["seat"]: s for s in body["seats"]}
    for s in by_seat.values():
        assert s["change"] == round(s["after"]["mu"] - s["before"]["mu"], 2)
        assert s["before"] == {"rating": 0.0, "mu": 25.0, "sigma": 8.333, "provisional": True}
        assert s["after"]["provisional"] is True  # one match: still settling
        assert s["after"]["mu"] > 0  # shown: never below zero for a new player
    winner = 0 if totals[0] < totals[1] else 1
    assert by_seat[winner]["change"] > 0 > by_seat[1 - winner]["change"]

    for person in (ann, bo):
        mine = person.me()["ratings"]["2"]
        assert mine["provisional"] is True and mine["mu"] > 0
        profile = fetch.get(f"{server.url}/api/profiles/{person.username}", timeout=10).json()
        assert profile["ratings"]["2"]["provisional"] is True
        recent = profile["recent"][0]["rating"]
        me_seat = by_seat[profile["recent"][0]["seat"]]
        assert recent["change"] == me_seat["change"]
        assert recent["mu_after"] == me_seat["after"]["mu"] and recent["provisional"] is True
    board = fetch.get(f"{server.url}/api/leaderboard?players=2", timeout=10).json()
    assert [e["provisional"] for e in board["entries"]] == [True, True]
