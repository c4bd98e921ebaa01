"""A player's own seat on every device (issue 47), through a real server: a socket
without the seat's token that says hello with ``own`` takes the seat its signed-in
account (the session cookie) or its player key holds, without moving the seat off
its other devices; ``GET /api/rooms/{id}/seats/mine`` answers the same question.

Hostile: another account, a forged or absent cookie, another browser's key, a
malformed key, a seat named by the client: all stay spectators (or are refused) and
change nothing."""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from app.accounts.tokens import SESSION_COOKIE
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, http_base, join, protocol_checker
from .test_accounts import Browser
from .test_history import play_one


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    return shared_server


class OwnClient(Client):
    """A socket that says hello without a token, asking for its own seat."""

    def __init__(
        self,
        server: ServerProcess,
        room_id: str,
        session: str | None = None,
        keys: list[str] | None = None,
        **hello: Any,
    ) -> None:
        cookie = {"Cookie": f"{SESSION_COOKIE}={session}"} if session else None
        super().__init__(server.ws_url, room_id, None, headers=cookie)
        self.hello = {"own": True, "keys": keys or [], **hello}

    async def connect(self, last_seq: int | None = None) -> Client:
        self.checker = await protocol_checker(http_base(self.url))
        self.ws = await websockets.connect(
            self.url, max_size=2**22, ping_interval=None, additional_headers=self.headers
        )
        await self.ws.send(
            json.dumps({"type": "hello", "token": None, "last_seq": last_seq, **self.hello})
        )
        return self


def session_of(browser: Browser) -> str:
    token = browser.http.cookies.get(SESSION_COOKIE)
    assert token, "signed in"
    return str(token)


@pytest.fixture
def people(server: ServerProcess) -> Iterator[dict[str, Browser]]:
    """Ann on her laptop and her phone (one account), Bo elsewhere (another account)."""
    made = {name: Browser(server) for name in ("laptop", "phone", "bo")}
    name = f"Ann_{secrets.token_hex(3)}"
    assert made["laptop"].register(name).status_code == 201
    assert made["phone"].login(name).status_code == 200
    assert made["bo"].register(f"Bo_{secrets.token_hex(3)}").status_code == 201
    yield made
    for b in made.values():
        b.close()


def ann_room(laptop: Browser) -> dict[str, Any]:
    """A 2-seat room against a bot, made by Ann signed in on her laptop: seat 0 is her
    account's (the phone never saw its token)."""
    r = laptop.post("/api/rooms", {"players": 2, "name": "Ann", "bots": 1, "rules": {}})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def welcomed(client: Client) -> tuple[int | None, dict[str, Any]]:
    """(the seat the welcome gave, the first snapshot's view)."""
    welcome = await client.wait_for(lambda m: m["type"] == "welcome")
    await client.wait_for(lambda m: m["type"] == "snapshot")
    assert client.view is not None
    return welcome["you"], client.view


def mine(browser: Browser, room_id: str, key: str | None = None) -> httpx.Response:
    headers = {"X-Player-Key": key} if key else {}
    return browser.http.get(f"/api/rooms/{room_id}/seats/mine", headers=headers)


def test_a_second_device_of_the_account_takes_its_seat_and_the_first_keeps_it(
    server: ServerProcess, people: dict[str, Browser]
) -> None:
    laptop, phone = people["laptop"], people["phone"]
    room = ann_room(laptop)
    rid = room["room_id"]
    assert mine(phone, rid).json() == {"seat": 0}

    async def run() -> None:
        first = await Client(server.ws_url, rid, room["token"]).connect()
        await welcomed(first)
        second = await OwnClient(server, rid, session_of(phone)).connect()
        seat, view = await welcomed(second)
        assert seat == 0 and view["you"] == 0, "the phone is Ann at her own seat"
        assert view["hand"], "with her hand"
        await second.wait_until(lambda: second.presence is not None and second.presence[0])
        # the phone plays for the seat when it is her turn
        await second.wait_until(lambda: second.view is not None and second.view["to_move"] == 0)
        assert second.view is not None
        move = second.view["legal"][0]
        answer = await second.play(move["card"], move["take"])
        assert answer["type"] == "ack", answer
        await first.wait_until(lambda: first.seq >= answer["seq"])
        assert not any(e["code"] == "seat_moved" for e in first.errors), "the laptop stays"
        # a reconnect with last_seq from the view it holds still gets the seat's snapshot
        await second.close()
        again = await OwnClient(server, rid, session_of(phone)).connect(last_seq=first.seq)
        seat, view = await welcomed(again)
        assert seat == 0 and view["you"] == 0
        for c in (first, again):
            await c.close()

    run_async(run())


def test_no_one_else_gets_the_seat(server: ServerProcess, people: dict[str, Browser]) -> None:
    laptop, bo = people["laptop"], people["bo"]
    room = ann_room(laptop)
    rid = room["room_id"]
    forged = secrets.token_urlsafe(32)
    assert mine(bo, rid).json() == {"seat": None}, "another account"
    assert mine(bo, rid, bo.key).json() == {"seat": None}, "another browser's key"
    stranger = httpx.get(f"{server.url}/api/rooms/{rid}/seats/mine", cookies={"x": "y"})
    assert stranger.json() == {"seat": None}, "no cookie"
    r = httpx.get(
        f"{server.url}/api/rooms/{rid}/seats/mine", cookies={SESSION_COOKIE: forged}, timeout=10
    )
    assert r.status_code == 200 and r.json() == {"seat": None}, "a forged cookie"
    r = mine(bo, rid, "not a key!")
    assert r.status_code == 422, "a malformed key is refused"

    async def run() -> None:
        watchers = [
            OwnClient(server, rid, session_of(bo)),  # another account
            OwnClient(server, rid, forged),  # a forged cookie
            OwnClient(server, rid),  # none
            OwnClient(server, rid, keys=[bo.key]),  # another browser's key
        ]
        for w in watchers:
            await w.connect()
            seat, view = await welcomed(w)
            assert seat is None and view["you"] is None and not view["hand"]
        # a seat named by the client is no part of hello: refused, still no seat
        named = await OwnClient(server, rid, session_of(bo), seat=0).connect()
        refused = await named.wait_for(lambda m: m["type"] == "error")
        assert refused["code"] == "bad_message"
        bad_key = await OwnClient(server, rid, keys=["short"]).connect()
        refused = await bad_key.wait_for(lambda m: m["type"] == "error")
        assert refused["code"] == "bad_message"
        # without ``own``, Ann's own cookie watches (after a seat moved, say)
        plain = OwnClient(server, rid, session_of(people["phone"]))
        plain.hello = {}
        seat, view = await welcomed(await plain.connect())
        assert seat is None and view["you"] is None
        for c in (*watchers, named, bad_key, plain):
            await c.close()

    run_async(run())
    assert mine(people["phone"], rid).json() == {"seat": 0}, "Ann's seat is still hers"


def test_a_guest_browser_holding_the_seats_player_key_takes_it(server: ServerProcess) -> None:
    key, other = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    room = create_room(server.url, 2, bots=1, player=key)
    rid = room["room_id"]
    r = httpx.get(f"{server.url}/api/rooms/{rid}/seats/mine", headers={"X-Player-Key": key})
    assert r.json() == {"seat": 0}

    async def run() -> None:
        held = await OwnClient(server, rid, keys=[other, key]).connect()
        seat, view = await welcomed(held)
        assert seat == 0 and view["you"] == 0
        stranger = await OwnClient(server, rid, keys=[other]).connect()
        seat, view = await welcomed(stranger)
        assert seat is None and view["you"] is None
        for c in (held, stranger):
            await c.close()

    run_async(run())


def test_in_a_shared_review_the_second_device_is_named_by_its_seat(
    server: ServerProcess, people: dict[str, Browser]
) -> None:
    laptop, phone = people["laptop"], people["phone"]
    rules = {"single_pack": True, "match_deals": 2}
    r = laptop.post("/api/rooms", {"players": 2, "name": "Ann", "rules": rules})
    assert r.status_code == 201, r.text
    room = r.json()
    rid = room["room_id"]
    bo_seat = join(server.url, rid, "Bo")

    async def run() -> None:
        ann = await Client(server.ws_url, rid, room["token"]).connect()
        bo = await Client(server.ws_url, rid, bo_seat["token"]).connect()
        for c in (ann, bo):
            await c.wait_for(lambda m: m["type"] == "snapshot")
        rng = random.Random(5)
        while ann.view is None or ann.view["deal_no"] < 2:
            await play_one([ann, bo], rng)
        on_phone = await OwnClient(server, rid, session_of(phone)).connect()
        await welcomed(on_phone)
        cy = await Client(server.ws_url, rid, None).connect()
        await welcomed(cy)
        await on_phone.ws.send(
            json.dumps({"type": "review_start", "match_no": 1, "deal_no": 1, "key": key()})
        )
        started = await on_phone.wait_for(lambda m: m["type"] == "review")
        assert started["me"] is not None
        named = [(p["name"], p["seat"]) for p in started["review"]["participants"]]
        assert named == [("Ann", 0)], "Ann's phone is Ann at seat 0, not a spectator"
        await cy.ws.send(json.dumps({"type": "review_join", "key": key(), "name": "Cy"}))
        both = await cy.wait_for(
            lambda m: m["type"] == "review" and len(m["review"]["participants"]) == 2
        )
        named = [(p["name"], p["seat"]) for p in both["review"]["participants"]]
        assert named == [("Ann", 0), ("Cy", None)]
        for c in (ann, bo, on_phone, cy):
            await c.close()

    run_async(run())


def key() -> str:
    return secrets.token_urlsafe(24)
