"""Reviewing a finished deal together, over the game's WebSocket, beside the live table.

Two players and two spectators: a review of the finished first deal is started while
the second deal is played; everyone who joins follows the driver; control is handed
over; a late joiner and a reconnecting tab land on the current step; the game goes on
meanwhile and no review message changes the room's seq or names a card.  Then the
same across two server processes sharing Redis: a step made on one reaches the
followers on the other.
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import pytest

from app.engine.cards import ALL_CODES
from tests import fetch
from tests.conftest import require_service, run_async

from .harness import Client, ServerProcess, create_room, join, settle, sql, two_players
from .test_history import play_one
from .test_multiprocess import REDIS_URL, _redis_available

CODES = set(ALL_CODES)


def key() -> str:
    return secrets.token_urlsafe(24)


async def send(c: Client, **msg: Any) -> None:
    await c.ws.send(json.dumps(msg))


async def review_of(c: Client, pred: Any = lambda r: True) -> dict[str, Any]:
    """The next review message this client receives whose review passes ``pred``."""
    return await c.wait_for(lambda m: m["type"] == "review" and pred(m["review"]))


async def error_of(c: Client) -> dict[str, Any]:
    return await c.wait_for(lambda m: m["type"] == "error")


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One server for the single-process tests: a review touches no table but the
    finished deals' (the history tests cover both databases)."""
    tmp = tmp_path_factory.mktemp("review")
    proc = ServerProcess(f"sqlite+aiosqlite:///{tmp}/db.sqlite", log_path=tmp / "server.log")
    proc.start()
    yield proc
    proc.stop()


async def finished_deal(server: ServerProcess) -> str:
    """A room of two whose one-deal match they played to its end (by WebSocket)."""
    rid, ann, bo = await two_players(server, rules={"single_pack": True, "match_deals": 1})
    rng = random.Random(8)
    while True:
        await settle([ann, bo])
        if ann.view["status"] == "finished":
            break
        await play_one([ann, bo], rng)
    for c in (ann, bo):
        await c.close()
    return rid


def review_messages(c: Client) -> list[str]:
    return [raw for raw in c.received if json.loads(raw)["type"] == "review"]


async def shared_review(server: ServerProcess, database_url: str) -> None:
    room = create_room(server.url, 2, rules={"single_pack": True, "match_deals": 2})
    rid = room["room_id"]
    bo_seat = join(server.url, rid, "Bo")
    ann = await Client(server.ws_url, rid, room["token"]).connect()
    bo = await Client(server.ws_url, rid, bo_seat["token"]).connect()
    cy = await Client(server.ws_url, rid, None).connect()
    players = [ann, bo, cy]
    for c in players:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    ka, kb, kc = key(), key(), key()

    await send(cy, type="review_start", match_no=1, deal_no=1, key=kc)
    refused = await error_of(cy)
    assert refused["code"] == "deal_not_over", "no review of a deal still in play"

    rng = random.Random(3)
    while ann.view["deal_no"] < 2 or len(ann.view["log"]) < 2:
        await play_one(players, rng)
    await settle(players)
    seq = ann.seq

    await send(ann, type="review_start", match_no=1, deal_no=1, key=ka)
    started = [await review_of(c) for c in players]
    review = started[0]["review"]
    assert (review["match_no"], review["deal_no"], review["step"]) == (1, 1, 0)
    steps = review["steps"]
    record = fetch.get(f"{server.url}/api/rooms/{rid}/matches/1/deals/1", timeout=10).json()
    assert steps == len(record["moves"]) == 48  # a single-pack deal of two has 48 moves
    me_a = started[0]["me"]
    assert review["driver"] == me_a and started[1]["me"] is None
    assert [p["name"] for p in review["participants"]] == ["Ann"]

    await send(bo, type="review_join", key=kb)
    joined = await review_of(bo, lambda r: len(r["participants"]) == 2)
    me_b = joined["me"]
    await send(cy, type="review_join", key=kc, name="Cy")
    everyone_in = [await review_of(c, lambda r: len(r["participants"]) == 3) for c in players]
    assert [p["name"] for p in everyone_in[0]["review"]["participants"]] == ["Ann", "Bo", "Cy"]
    assert [p["seat"] for p in everyone_in[0]["review"]["participants"]] == [0, 1, None]

    await send(ann, type="review_step", step=5)
    for c in players:
        await review_of(c, lambda r: r["step"] == 5)
    await send(bo, type="review_step", step=6)
    assert (await error_of(bo))["code"] == "not_driver"
    await send(ann, type="review_step", step=steps + 1)
    assert (await error_of(ann))["code"] == "bad_message"
    await send(cy, type="review_start", match_no=1, deal_no=1, key=kc)
    assert (await error_of(cy))["code"] == "review_running"
    await send(ann, type="review_pass", to="0" * 16)
    assert (await error_of(ann))["code"] == "not_in_review"

    # The game goes on beside the review: a move is played and seen by all.
    await play_one(players, rng)
    await settle(players)
    assert ann.seq == seq + 1
    seq = ann.seq

    await send(ann, type="review_pass", to=me_b)
    for c in players:
        await review_of(c, lambda r: r["driver"] == me_b)
    await send(bo, type="review_step", step=steps)
    for c in players:
        await review_of(c, lambda r: r["step"] == steps)

    # A late joiner sees the review as it connects, and lands on the current step.
    dee = await Client(server.ws_url, rid, None).connect()
    shown = await review_of(dee)
    assert shown["review"]["step"] == steps and shown["me"] is None
    await send(dee, type="review_join", key=key(), name="Dee")
    landed = await review_of(dee, lambda r: len(r["participants"]) == 4)
    assert landed["review"]["step"] == steps

    # A tab that reloads (same key) is the same participant, on the current step.
    await cy.close()
    gone = await review_of(ann, lambda r: len(r["participants"]) == 3)
    assert "Cy" not in [p["name"] for p in gone["review"]["participants"]]
    cy = await Client(server.ws_url, rid, None).connect()
    await send(cy, type="review_join", key=kc, name="Cy")
    back = await review_of(cy, lambda r: len(r["participants"]) == 4)
    assert back["me"] == everyone_in[2]["me"] and back["review"]["step"] == steps
    players = [ann, bo, cy, dee]

    # The driver may start over (or switch deals): everyone stays, in the same order.
    order = [p["id"] for p in back["review"]["participants"]]
    await send(bo, type="review_start", match_no=1, deal_no=1, key=kb)
    again = await review_of(ann, lambda r: r["id"] != back["review"]["id"])
    assert again["review"]["step"] == 0 and again["review"]["driver"] == me_b
    assert [p["id"] for p in again["review"]["participants"]] == order

    # The driver leaves: control goes to whoever has been there longest (Ann).
    await send(bo, type="review_leave")
    left = await review_of(ann, lambda r: len(r["participants"]) == 3)
    assert left["review"]["driver"] == me_a
    for c in (ann, cy, dee):
        await send(c, type="review_leave")
    ended = await review_of(bo, lambda r: r is None)
    assert ended["review"] is None

    await settle(players)
    assert [c.seq for c in players] == [seq] * 4, "reviews never advance the seq"
    seed = sql(
        database_url,
        "SELECT seed FROM deals WHERE room_id = :r AND match_no = 1 AND deal_no = 2",
        r=rid,
    )[0][0]
    for c in players:
        for raw in review_messages(c):
            assert not CODES & _strings(json.loads(raw)), raw
            assert seed not in raw
        assert [json.loads(r)["type"] for r in c.received].count("review") >= 2
        await c.close()


def _strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


def test_a_shared_review_follows_its_driver_beside_the_game(sqlite_server: ServerProcess) -> None:
    run_async(shared_review(sqlite_server, sqlite_server.database_url))


def test_bad_review_messages_are_refused_and_change_nothing(sqlite_server: ServerProcess) -> None:
    server = sqlite_server

    async def check() -> None:
        room = create_room(server.url, 2, bots=1)  # its first deal in play
        c = await Client(server.ws_url, room["room_id"], None).connect()
        await c.wait_for(lambda m: m["type"] == "snapshot")
        for msg in (
            {"type": "review_start", "match_no": 1, "deal_no": 1, "key": "short"},
            {"type": "review_start", "match_no": "1", "deal_no": 1, "key": key()},
            {"type": "review_step", "step": -1},
            {"type": "review_pass", "to": "ZZ"},
            {"type": "review_join", "key": key(), "name": "\u0000"},
        ):
            await send(c, **msg)
            assert (await error_of(c))["code"] == "bad_message", msg
        await send(c, type="review_join", key=key())
        assert (await error_of(c))["code"] == "no_review"
        await send(c, type="review_step", step=1)
        assert (await error_of(c))["code"] == "no_review"
        for deal_no in (1, 2):
            await send(c, type="review_start", match_no=1, deal_no=deal_no, key=key())
            assert (await error_of(c))["code"] == "deal_not_over"
        await c.drain(0.1)
        assert not review_messages(c)
        await c.close()

    run_async(check())


@pytest.fixture
def two_processes(postgres_url: str, tmp_path):  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    env = {"REDIS_URL": REDIS_URL}
    a = ServerProcess(postgres_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_review_steps_reach_the_other_process(two_processes) -> None:  # type: ignore[no-untyped-def]
    a, b = two_processes

    async def check() -> None:
        rid = await finished_deal(a)
        driver = await Client(a.ws_url, rid, None).connect()
        follower = await Client(b.ws_url, rid, None).connect()
        for c in (driver, follower):
            await c.wait_for(lambda m: m["type"] == "snapshot")
        await send(driver, type="review_start", match_no=1, deal_no=1, key=key(), name="Ann")
        await review_of(follower, lambda r: r is not None)
        await send(follower, type="review_join", key=key(), name="Bo")
        joined = await review_of(driver, lambda r: len(r["participants"]) == 2)
        for step in (1, 2, 3, 10):
            await send(driver, type="review_step", step=step)
            seen = await review_of(follower, lambda r, s=step: r["step"] == s)
            assert seen["review"]["driver"] == joined["me"]
        # Control handed to the follower on the other process; its steps come back.
        follower_id = next(p["id"] for p in joined["review"]["participants"] if p["name"] == "Bo")
        await send(driver, type="review_pass", to=follower_id)
        await review_of(follower, lambda r: r["driver"] == follower_id)
        await send(follower, type="review_step", step=4)
        await review_of(driver, lambda r: r["step"] == 4)
        # A late joiner on the other process lands on the current step.
        late = await Client(b.ws_url, rid, None).connect()
        assert (await review_of(late))["review"]["step"] == 4
        # The driver's connection closes: control passes to the one on the other process.
        await follower.close()
        passed = await review_of(driver, lambda r: len(r["participants"]) == 1)
        assert passed["review"]["driver"] == joined["me"]
        for c in (driver, late):
            await c.close()

    run_async(check())
