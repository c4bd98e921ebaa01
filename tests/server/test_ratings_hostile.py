"""Ratings farmed with sock puppets (issue 46, part 4), replayed against a real server
on SQLite and PostgreSQL: two accounts from one address (or one browser: one player
key) play a rated match against each other, and neither rating moves, while an account
from elsewhere rated against one of them moves as ever; a player who leaves loses, and
the one who stayed gains nothing from it.  The server says so: each seat's result
(``GET /api/rooms/{room}/matches/{m}/rating``) names the seats its rating ignored.

Every client comes through 127.0.0.1, the trusted proxy by default, with its own
address in X-Forwarded-For (TEST-NET addresses), as tests/server/test_http_limits.py
does.  RATINGS_SHARED_DAYS is set here as a host would leave it (TEST_LIMITS may turn
it off for the other tests, whose clients all share 127.0.0.1)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.ratings.model import NEW
from tests import fetch
from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import Client, ServerProcess, play_random, settle_turn
from .test_ratings import PASSWORD, RULES

HOME, ELSEWHERE, CAFE, OFFICE = "203.0.113.9", "198.51.100.7", "192.0.2.44", "192.0.2.45"
BROWSER_KEY = "sock-puppets-browser-key-0001"


@pytest.fixture
def server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    env = {
        "REGISTER_PER_HOUR": "0",
        "LEADERBOARD_MIN_MATCHES": "1",
        "RATINGS_SHARED_DAYS": "7",
    }
    proc = ServerProcess(database_url, env=env, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


class Person:
    """An account signed in from ``address`` (and, if given, a browser's player key
    sent with every request, as the lobby does)."""

    def __init__(self, base: str, username: str, address: str, key: str | None = None) -> None:
        self.username = username
        headers = {"X-Forwarded-For": address}
        if key is not None:
            headers["X-Player-Key"] = key
        self.http = httpx.Client(base_url=base, timeout=10, headers=headers)
        r = self.http.post("/api/auth/register", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def rating(self, matches: int) -> dict[str, Any]:
        """The 2-player rating once ``matches`` rated matches counted."""

        def done() -> dict[str, Any] | None:
            r = self.http.get("/api/me")
            assert r.status_code == 200, r.text
            found = r.json()["ratings"].get("2")
            return found if found and found["matches"] >= matches else None

        found: dict[str, Any] = wait_until(done, 30, 0.2, f"{self.username}'s rating")
        return found

    def create(self, **extra: Any) -> dict[str, Any]:
        body = {"players": 2, "name": self.username, "rules": RULES, "rated": True, **extra}
        r = self.post("/api/rooms", body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(self, room_id: str) -> dict[str, Any]:
        r = self.post(f"/api/rooms/{room_id}/seats", {"name": self.username})
        assert r.status_code == 201, r.text
        return dict(r.json())


def rated_match(server: ServerProcess, host: Person, guest: Person, seed: int) -> str:
    """A rated match of ``host`` against ``guest``, played to the end; its room."""
    room = host.create()
    seat = guest.join(room["room_id"])

    async def play() -> None:
        clients = [
            await Client(server.ws_url, room["room_id"], t).connect()
            for t in (room["token"], seat["token"])
        ]
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "snapshot")
        await play_random(clients, 500, random.Random(seed))
        assert clients[0].view is not None and clients[0].view["status"] == "finished"
        for c in clients:
            await c.close()

    run_async(play())
    return str(room["room_id"])


def rating_of(server: ServerProcess, room_id: str) -> dict[str, Any]:
    def rated() -> dict[str, Any] | None:
        r = fetch.get(f"{server.url}/api/rooms/{room_id}/matches/1/rating", timeout=10)
        return dict(r.json()) if r.status_code == 200 else None

    found: dict[str, Any] = wait_until(rated, 30, 0.2, "the match's rating")
    return found


def unchanged(rating: dict[str, Any]) -> bool:
    return rating["mu"] == round(NEW.mu, 3) and rating["sigma"] == round(NEW.sigma, 3)


def test_accounts_sharing_an_address_or_a_browser_do_not_rate_each_other(
    server: ServerProcess,
) -> None:
    # the attack: a second account from the same address hands the first its wins
    ann, puppet = Person(server.url, "ann", HOME), Person(server.url, "annex", HOME)
    rid = rated_match(server, ann, puppet, seed=46)
    assert unchanged(ann.rating(1)) and unchanged(puppet.rating(1))
    result = rating_of(server, rid)
    assert result["rated"] is True
    assert [s["ignored"] for s in result["seats"]] == [
        [{"seat": 1, "why": "shared"}],
        [{"seat": 0, "why": "shared"}],
    ]
    assert all(s["before"] == s["after"] for s in result["seats"])
    board = fetch.get(server.url + "/api/leaderboard?players=2", timeout=10).json()
    assert {e["rating"] for e in board["entries"]} == {0.0}, "nobody climbed"

    # one browser (one player key), two addresses: the same person all the same
    dan = Person(server.url, "dan", CAFE, key=BROWSER_KEY)
    dan_too = Person(server.url, "dan2", OFFICE, key=BROWSER_KEY)
    rated_match(server, dan, dan_too, seed=47)
    assert unchanged(dan.rating(1)) and unchanged(dan_too.rating(1))

    # someone from elsewhere: rated against Ann as ever
    cy = Person(server.url, "cyd", ELSEWHERE)
    rid = rated_match(server, cy, ann, seed=48)
    mine, hers = cy.rating(1), ann.rating(2)
    assert not unchanged(mine) and not unchanged(hers)
    assert (mine["mu"] > NEW.mu) != (hers["mu"] > NEW.mu), "one won, one lost"
    assert [s["ignored"] for s in rating_of(server, rid)["seats"]] == [[], []]


def test_leaving_is_no_free_win_for_the_others(server: ServerProcess) -> None:
    """Bea takes her seat and never comes: a stand-in plays for her (grace 0) to the
    end.  She finishes last and loses; Ann, who stayed, gains nothing from it."""
    ann, bea = Person(server.url, "ann", HOME), Person(server.url, "bea", ELSEWHERE)
    room = ann.create(grace=0, bot_delay=0)
    rid = room["room_id"]
    bea.join(rid)

    async def ann_plays() -> None:
        me = await Client(server.ws_url, rid, room["token"]).connect()
        await me.wait_for(lambda m: m["type"] == "snapshot")
        rng = random.Random(3)
        while True:
            view = await settle_turn([me])
            if view["status"] == "finished":
                return
            if view["to_move"] == 0:
                move = rng.choice(view["legal"])
                ack = await me.play(move["card"], move["take"])
                assert ack["type"] == "ack", ack
            else:
                await me.wait_seq(me.seq + 1)
        await me.close()

    run_async(ann_plays())
    stayed, left = ann.rating(1), bea.rating(1)
    assert unchanged(stayed), "no gain from a leaver"
    assert left["mu"] < NEW.mu and left["rating"] < stayed["rating"], "the leaver loses"
    seats = rating_of(server, rid)["seats"]
    assert [(s["rank"], s["left"]) for s in seats] == [(0, False), (1, True)]
    assert seats[0]["ignored"] == [{"seat": 1, "why": "left"}]
    assert seats[1]["ignored"] == []  # the leaver is rated against everyone
