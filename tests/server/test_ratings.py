"""Rated rooms through a real server, on SQLite and PostgreSQL (issue 34): real matches
played to the end over the WebSocket (two players, one pack, one deal: a match in
about fifty moves), then the ratings, the leaderboard and the profiles they produce.

A one-pack deal's scores add up to 21 (V2, R6.3), an odd number: two players never
tie, so every match here has one winner.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.ratings.model import BOT_ANCHORS
from tests import fetch
from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import Client, ServerProcess, play_random, settle_turn, sql

RULES = {"single_pack": True, "match_deals": 1}
PASSWORD = "a long pass phrase for tests"


@pytest.fixture
def server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    env = {"REGISTER_PER_HOUR": "0", "LEADERBOARD_MIN_MATCHES": "1"}
    proc = ServerProcess(database_url, env=env, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


class Person:
    """Someone with an account, signed in: the session cookie and its CSRF token."""

    def __init__(self, base: str, username: str) -> None:
        self.username = username
        self.http = httpx.Client(base_url=base, timeout=10)
        r = self.http.post("/api/auth/register", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def me(self) -> dict[str, Any]:
        r = self.http.get("/api/me")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def create(self, **extra: Any) -> dict[str, Any]:
        body = {"players": 2, "name": self.username, "rules": RULES, "rated": True, **extra}
        r = self.post("/api/rooms", body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(self, room_id: str) -> dict[str, Any]:
        r = self.post(f"/api/rooms/{room_id}/seats", {"name": self.username})
        assert r.status_code == 201, r.text
        return dict(r.json())


def _rated(person: Person, matches: int = 1) -> dict[str, Any]:
    """The person's 2-player rating once ``matches`` rated matches counted (the rating is
    written just after the match's last play is committed)."""

    def done() -> dict[str, Any] | None:
        rating = person.me()["ratings"].get("2")
        return rating if rating and rating["matches"] >= matches else None

    found: dict[str, Any] = wait_until(done, 30, 0.2, f"{person.username}'s rating")
    return found


async def _play_to_the_end(server: ServerProcess, room_id: str, tokens: list[str]) -> list[int]:
    clients = [await Client(server.ws_url, room_id, t).connect() for t in tokens]
    for c in clients:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    await play_random(clients, 500, random.Random(34))
    view = clients[0].view
    assert view is not None and view["status"] == "finished"
    for c in clients:
        await c.close()
    return list(view["cumulative"])


def test_a_rated_match_raises_the_winner_above_the_loser(server: ServerProcess) -> None:
    ann, bo = Person(server.url, "ann"), Person(server.url, "bob")
    room = ann.create()
    seat = bo.join(room["room_id"])
    totals = run_async(_play_to_the_end(server, room["room_id"], [room["token"], seat["token"]]))
    assert sum(totals) == 21
    winner, loser = (ann, bo) if totals[0] < totals[1] else (bo, ann)
    won, lost = _rated(winner), _rated(loser)
    assert won["rating"] > lost["rating"] and won["mu"] > lost["mu"]
    assert won["matches"] == lost["matches"] == 1
    with httpx.Client(base_url=server.url, timeout=10) as device:  # signing in elsewhere
        login = {"username": winner.username, "password": PASSWORD}
        assert device.post("/api/auth/login", json=login).json()["ratings"]["2"] == won

    board = fetch.get(server.url + "/api/leaderboard?players=2", timeout=10).json()
    assert board["players"] == 2 and board["min_matches"] == 1
    assert [(e["rank"], e["username"]) for e in board["entries"]] == [
        (1, winner.username),
        (2, loser.username),
    ]
    assert board["entries"][0]["rating"] == won["rating"]
    assert {b["level"]: b["mu"] for b in board["bots"]} == {
        level: s.mu for level, s in BOT_ANCHORS.items()
    }
    assert fetch.get(server.url + "/api/leaderboard?players=3", timeout=10).json()["entries"] == []
    for bad in ("1", "7", "two", ""):
        r = fetch.get(server.url + f"/api/leaderboard?players={bad}", timeout=10)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", bad
    assert fetch.get(server.url + "/api/leaderboard", timeout=10).status_code == 422


def test_the_profile_figures_come_from_the_finished_deals(server: ServerProcess) -> None:
    ann, bo = Person(server.url, "Ann"), Person(server.url, "bob")
    room = ann.create()
    rid = room["room_id"]
    seat = bo.join(rid)
    run_async(_play_to_the_end(server, rid, [room["token"], seat["token"]]))
    _rated(ann)
    [match] = fetch.get(f"{server.url}/api/rooms/{rid}/matches", timeout=10).json()
    [deal] = match["deals"]

    profile = fetch.get(server.url + "/api/profiles/ann", timeout=10).json()  # any case
    assert profile["username"] == "Ann"
    mine = deal["scores"][0]
    assert profile["games"] == [
        {
            "players": 2,
            "matches": 1,
            "wins": int(0 in match["winners"]),
            "deals": 1,
            "mean_vs_share": round(deal["totals"][0] - 21 / 2, 2),
        }
    ]
    assert profile["mean_vs_share"] == round(deal["totals"][0] - 21 / 2, 2)
    assert profile["sweeps"] == {
        "made": mine["sweeps"],
        "doubles_made": mine["double_sweeps"],
        "conceded": mine["sweeps_conceded"],
        "doubles_conceded": mine["double_sweeps_conceded"],
    }
    assert profile["coach"] is None, "no deal of Ann's is analysed yet"
    assert profile["ratings"]["2"]["matches"] == 1
    [recent] = profile["recent"]
    assert recent["room_id"] == rid and recent["total"] == match["cumulative"][0]
    assert recent["won"] == (0 in match["winners"]) and not recent["left"]
    assert [s["username"] for s in recent["seats"]] == ["Ann", "bob"]
    assert recent["rating"]["after"] == profile["ratings"]["2"]["rating"]
    page = fetch.get(server.url + recent["replay"], headers={"Accept": "text/html"}, timeout=10)
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert fetch.get(server.url + recent["history"], headers={"Accept": "text/html"}).is_success

    gone = fetch.get(server.url + "/api/profiles/nobody", timeout=10)
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"

    r = bo.http.delete("/api/me", headers={"X-CSRF-Token": bo.csrf})
    assert r.status_code == 204, r.text
    after = fetch.get(server.url + "/api/profiles/ann", timeout=10).json()
    other = after["recent"][0]["seats"][1]
    assert other["deleted"] and other["username"] is None and other["name"] is None
    assert fetch.get(server.url + "/api/profiles/bob", timeout=10).status_code == 404
    names = [
        e["username"]
        for e in fetch.get(server.url + "/api/leaderboard?players=2").json()["entries"]
    ]
    assert names == ["Ann"]


def test_leaving_a_rated_match_counts_as_finishing_last(server: ServerProcess) -> None:
    """Bo takes his seat and never comes: after the grace period (0 here) a stand-in bot
    plays for him to the end, and he is ranked last whatever his points."""
    ann, bo = Person(server.url, "ann"), Person(server.url, "bob")
    room = ann.create(grace=0, bot_delay=0)
    rid = room["room_id"]
    bo.join(rid)

    async def ann_plays() -> list[int]:
        me = await Client(server.ws_url, rid, room["token"]).connect()
        await me.wait_for(lambda m: m["type"] == "snapshot")
        rng = random.Random(1)
        while True:
            view = await settle_turn([me])
            if view["status"] == "finished":
                return list(view["cumulative"])
            if view["to_move"] == 0:
                move = rng.choice(view["legal"])
                ack = await me.play(move["card"], move["take"])
                assert ack["type"] == "ack", ack
            else:
                await me.wait_seq(me.seq + 1)

    run_async(ann_plays())
    stayed, left = _rated(ann), _rated(bo)
    assert stayed["mu"] > left["mu"] and stayed["rating"] > left["rating"]
    [recent] = fetch.get(server.url + "/api/profiles/bob", timeout=10).json()["recent"]
    assert recent["left"]
    ranks = sql(
        server.database_url,
        'SELECT seat, rank, "left" FROM rating_results WHERE room_id = :r ORDER BY seat',
        r=rid,
    )
    assert [(int(s), int(k), bool(x)) for s, k, x in ranks] == [(0, 0, False), (1, 1, True)]


def test_a_bot_is_an_anchor_and_a_rated_room_takes_only_accounts(server: ServerProcess) -> None:
    ann, bo = Person(server.url, "ann"), Person(server.url, "bob")
    base = {"players": 2, "name": "Cy", "rules": RULES, "rated": True}
    r = fetch.post(server.url + "/api/rooms", json=base, timeout=10)
    assert r.status_code == 403 and r.json()["code"] == "rated_account_required"
    r = ann.post("/api/rooms", {**base, "players": 4, "rules": {"partnership": True}})
    assert r.status_code == 422 and r.json()["code"] == "rated_teams"
    open_room = ann.create()
    r = fetch.post(
        f"{server.url}/api/rooms/{open_room['room_id']}/seats", json={"name": "Cy"}, timeout=10
    )
    assert r.status_code == 403 and r.json()["code"] == "rated_account_required"
    r = ann.post(f"/api/rooms/{open_room['room_id']}/seats", {"name": "ann"})
    assert r.status_code == 409 and r.json()["code"] == "rated_already_seated"
    summary = fetch.get(f"{server.url}/api/rooms/{open_room['room_id']}", timeout=10).json()
    assert [s["name"] for s in summary["seats"]] == ["ann", None], "nothing changed"
    assert summary["options"]["rated"] is True
    bo.join(open_room["room_id"])  # an account may

    room = ann.create(bots=1, bot_level="random", bot_delay=0)
    rid = room["room_id"]

    async def ann_plays() -> None:
        me = await Client(server.ws_url, rid, room["token"]).connect()
        await me.wait_for(lambda m: m["type"] == "snapshot")
        await play_random_alone(me)

    run_async(ann_plays())
    mine = _rated(ann)
    anchor = BOT_ANCHORS["random"]
    rows = sql(
        server.database_url,
        "SELECT bot_level, mu_before, sigma_before, mu_after, sigma_after, account_id "
        "FROM rating_results WHERE room_id = :r AND seat = 1",
        r=rid,
    )
    assert [tuple(row) for row in rows] == [
        ("random", anchor.mu, anchor.sigma, anchor.mu, anchor.sigma, None)
    ]
    assert sql(server.database_url, "SELECT count(*) FROM ratings")[0][0] == 1
    assert mine["matches"] == 1
    board = fetch.get(server.url + "/api/leaderboard?players=2", timeout=10).json()
    assert [e["username"] for e in board["entries"]] == ["ann"]


async def play_random_alone(me: Client) -> None:
    """Play seat 0's turns with random legal moves until the match is over (a bot plays
    the other seat)."""
    rng = random.Random(2)
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


def test_the_profile_carries_the_coachs_word_once_a_deal_is_analysed(
    server: ServerProcess,
) -> None:
    ann, bo = Person(server.url, "Ann"), Person(server.url, "bob")
    room = ann.create()
    rid = room["room_id"]
    seat = bo.join(rid)
    run_async(_play_to_the_end(server, rid, [room["token"], seat["token"]]))
    url = f"{server.url}/api/rooms/{rid}/matches/1/deals/1/analysis"
    assert fetch.get(url, timeout=10).status_code == 202  # asked for: queued

    def analysed() -> Any:
        r = fetch.get(url, timeout=10)
        return r.json() if r.status_code == 200 else None

    analysis = wait_until(analysed, timeout=180, interval=0.5, message="the analysis")
    mine = analysis["seats"][0]
    coach = fetch.get(server.url + "/api/profiles/Ann", timeout=10).json()["coach"]
    labelled = mine["inaccuracies"] + mine["mistakes"] + mine["blunders"]
    assert coach == {
        "deals": 1,
        "plays": mine["plays"],
        "accuracy": round((mine["plays"] - labelled) / mine["plays"], 4),
        "mean_loss": round(mine["loss"] / mine["plays"], 3),
        "inaccuracies": mine["inaccuracies"],
        "mistakes": mine["mistakes"],
        "blunders": mine["blunders"],
    }
    theirs = fetch.get(server.url + "/api/profiles/bob", timeout=10).json()["coach"]
    assert theirs["plays"] == analysis["seats"][1]["plays"]
