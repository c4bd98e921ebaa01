"""Test harness: a real server process on a free port, and a real WebSocket client.

The server is ``python -m app.cli serve`` in a subprocess (so a test can kill -9
it and start it again on the same database; tests/server/process.py, whose names
this module re-exports); the client keeps its view by applying every patch,
exactly as a browser does, and records every message.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import httpx
import jsonpatch
import websockets
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from app.config import Settings
from app.wire import SCHEMA_PATH
from tests import fetch
from tests.waiting import wait_until

from .process import (
    TEST_LIMITS,
    WAITS_FOR_ANALYSES,
    ServerProcess,
    backdate,
    free_port,
    krypkasino,
    krypkasino_beside,
    metric,
    ready,
    sql,
    through,
    wait_metric,
    wait_ready,
)

__all__ = [
    "TEST_LIMITS",
    "WAITS_FOR_ANALYSES",
    "Client",
    "ProtocolChecker",
    "ProtocolViolation",
    "ServerProcess",
    "awaiting_deal",
    "backdate",
    "converge",
    "create_room",
    "finished_room",
    "free_port",
    "fresh_snapshot",
    "http_base",
    "join",
    "krypkasino",
    "krypkasino_beside",
    "metric",
    "play_random",
    "protocol_checker",
    "ready",
    "received",
    "settle",
    "settle_turn",
    "sql",
    "through",
    "two_players",
    "wait_metric",
    "wait_ready",
    "watch_until_finished",
]

PLAY_INTERVAL = 1.2 / Settings.model_fields["rate_per_second"].default
"""Seconds between a client's plays: a margin under the default rate limit."""


class ProtocolViolation(AssertionError):
    """A server message that its own protocol schema does not allow."""


class ProtocolChecker:
    """Validates server messages against the schema a server publishes at SCHEMA_PATH."""

    def __init__(self, schema: dict[str, Any]) -> None:
        Draft202012Validator.check_schema(schema)
        defs = schema["$defs"]
        self.version = schema["version"]
        self.any = Draft202012Validator({"$ref": "#/$defs/ServerMessage", "$defs": defs})
        self.by_type: dict[str, Draft202012Validator] = {}
        union = defs["ServerMessage"]
        mapping = union["discriminator"]["mapping"]
        assert len(mapping) == len(union["oneOf"]), "one branch of the union per type"
        for kind, ref in mapping.items():
            sub = defs[ref.rsplit("/", 1)[-1]]
            # Each branch demands its own ``type``: a message valid for the branch its
            # type names is invalid for every other, so it matches exactly one of the
            # ``oneOf`` and checking that one branch is enough.
            assert sub["properties"]["type"].get("const") == kind, (kind, sub)
            assert "type" in sub.get("required", []), kind
            self.by_type[kind] = Draft202012Validator({"$ref": ref, "$defs": defs})
        self.view = Draft202012Validator({"$ref": "#/$defs/View", "$defs": defs})

    def check_view(self, view: Any) -> None:
        """Raise ProtocolViolation unless ``view`` (one a patch made) is a view of the
        schema: every key of docs/protocol.md's table, of its type, and no other."""
        if self.view.is_valid(view):
            return
        error = best_match(self.view.iter_errors(view))
        where = "/".join(str(p) for p in error.absolute_path) if error else ""
        raise ProtocolViolation(
            f"a patched view breaks the protocol schema at {where or 'the top'}: "
            f"{error.message if error else '?'}"
        )

    def check(self, msg: Any) -> None:
        """Raise ProtocolViolation, naming the first problem, unless ``msg`` is a server
        message of the schema."""
        kind = msg.get("type") if isinstance(msg, dict) else None
        precise = self.by_type.get(kind) if isinstance(kind, str) else None
        if precise is not None and precise.is_valid(msg):
            return  # one branch of the union, the only one it can match: valid
        if self.any.is_valid(msg):
            return
        error = best_match((precise or self.any).iter_errors(msg))
        where = "/".join(str(p) for p in error.absolute_path) if error else ""
        raise ProtocolViolation(
            f"server message breaks the protocol schema at "
            f"{where or 'the top'}: {error.message if error else '?'}; "
            f"message: {json.dumps(msg)[:500]}"
        )


_checkers: dict[str, ProtocolChecker] = {}
"""Per server (its HTTP base URL): the checker made from the schema it serves."""


def http_base(ws_url: str) -> str:
    """The HTTP origin of a WebSocket URL (the same server)."""
    scheme, _, rest = ws_url.partition("://")
    return ("https" if scheme == "wss" else "http") + "://" + rest.split("/", 1)[0]


async def protocol_checker(base: str) -> ProtocolChecker:
    """The checker of the server at ``base``, fetched once per server and cached."""
    checker = _checkers.get(base)
    if checker is None:
        async with httpx.AsyncClient() as http:
            response = await http.get(base + SCHEMA_PATH, timeout=10)
        assert response.status_code == 200, f"no protocol schema at {base}: {response.text}"
        checker = _checkers[base] = ProtocolChecker(response.json())
    return checker


async def received(ws: Any, timeout: float = 10) -> dict[str, Any]:
    """The next message on a raw ``websockets`` connection to a test server, checked
    against the protocol schema that server serves (as Client does for its own)."""
    raw = await asyncio.wait_for(ws.recv(), timeout)
    msg: dict[str, Any] = json.loads(raw)
    host, port = ws.remote_address[:2]
    (await protocol_checker(f"http://{host}:{port}")).check(msg)
    return msg


class Client:
    """A WebSocket client that keeps its view by applying patches and records everything.

    Every message it receives is checked against the protocol schema its server serves
    (``GET /api/protocol.schema.json``): a message the schema does not allow fails the
    test that received it, with a ProtocolViolation."""

    def __init__(
        self, ws_url: str, room_id: str, token: str | None, headers: dict[str, str] | None = None
    ) -> None:
        self.url = f"{ws_url}/ws/rooms/{room_id}"
        self.token = token
        self.headers = headers
        """Extra handshake headers (X-Forwarded-For: to be another address)."""
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.received: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        self.snapshots = 0
        self.patches = 0
        self.presence: list[bool] | None = None
        self._last_play = 0.0
        self.checker: ProtocolChecker | None = None

    async def connect(self, last_seq: int | None = None) -> Client:
        # No keepalive pings: a test that runs a command in between would otherwise
        # miss their answers on a busy machine and see its socket dropped.
        if self.checker is None:  # before the socket: a server may close it at once
            self.checker = await protocol_checker(http_base(self.url))
        self.ws = await websockets.connect(
            self.url, max_size=2**22, ping_interval=None, additional_headers=self.headers
        )
        hello = {"type": "hello", "token": self.token, "last_seq": last_seq}
        try:
            await self.ws.send(json.dumps(hello))
        except websockets.ConnectionClosed:
            # The server refused the room before hello (purged, closed, too many
            # sockets): its error is still in the buffer for recv() to read.
            pass
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def _handle(self, raw: str) -> dict[str, Any]:
        self.received.append(raw)
        msg = json.loads(raw)
        assert self.checker is not None, "connect() first"
        self.checker.check(msg)
        t = msg["type"]
        if t == "snapshot":
            self.view, self.seq = msg["view"], msg["seq"]
            self.snapshots += 1
        elif t == "patch":
            assert msg["seq"] == self.seq + 1, f"seq gap: {self.seq} -> {msg['seq']}"
            self.view = jsonpatch.apply_patch(self.view, msg["ops"])
            self.checker.check_view(self.view)
            self.seq = msg["seq"]
            self.patches += 1
        elif t == "error":
            self.errors.append(msg)
        elif t == "ack":
            self.acks.append(msg)
        elif t == "presence":
            self.presence = msg["connected"]
        return msg

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        return self._handle(await asyncio.wait_for(self.ws.recv(), timeout))

    async def drain(self, quiet: float = 0.05, limit: float = 15) -> None:
        """Read until nothing arrives for ``quiet`` seconds; fail if messages still keep
        coming after ``limit`` seconds (a room that never falls quiet, such as a clock
        playing on by itself, fails the test here instead of hanging it)."""
        deadline = time.monotonic() + limit
        while True:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), quiet)
            except TimeoutError:
                return
            self._handle(raw)
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"still receiving after {limit} s of drain (at seq {self.seq}): {raw[:200]}"
                )

    async def wait_for(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg

    async def wait_until(self, holds: Any, timeout: float = 20) -> None:
        """Receive until ``holds()`` is true of this client's state (at once if it is)."""
        deadline = time.monotonic() + timeout
        while not holds():
            await self.recv(max(0.01, deadline - time.monotonic()))

    async def wait_seq(self, seq: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.seq < seq:
            await self.recv(max(0.01, deadline - time.monotonic()))

    async def play(self, card: str, take: list[str], msg_id: str | None = None) -> dict[str, Any]:
        """Send a play and wait for its ack or error.

        Plays are paced like a well-behaved client's: no faster than the server's
        default rate limit, which a bot-only table at zero delay would otherwise
        reach on a fast machine and turn into ``rate_limited`` errors.
        """
        wait = self._last_play + PLAY_INTERVAL - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_play = time.monotonic()
        msg_id = msg_id or uuid.uuid4().hex
        await self.ws.send(json.dumps({"type": "play", "id": msg_id, "card": card, "take": take}))
        return await self.wait_for(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == msg_id
        )


async def fresh_snapshot(
    server: ServerProcess, room_id: str, token: str | None
) -> tuple[int, dict[str, Any]]:
    """(seq, view) of a brand-new connection: what any client's patched view must equal."""
    probe = await Client(server.ws_url, room_id, token).connect()
    try:
        msg = await probe.wait_for(lambda m: m["type"] == "snapshot")
    finally:
        await probe.close()
    return msg["seq"], msg["view"]


def create_room(
    base: str, players: int, *, bots: int = 0, rules: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    body = {"players": players, "name": "Ann", "bots": bots, "rules": rules or {}, **extra}
    r = fetch.post(base + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def join(base: str, room_id: str, name: str) -> dict[str, Any]:
    r = fetch.post(f"{base}/api/rooms/{room_id}/seats", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


async def two_players(server: ServerProcess, **options: Any) -> tuple[str, Client, Client]:
    """A 2-player room (``options`` as for create_room) with Ann and Bo connected and
    holding their first snapshots: (room id, Ann's client, Bo's client)."""
    room = create_room(server.url, 2, **options)
    rid = room["room_id"]
    bo_seat = join(server.url, rid, "Bo")
    ann = await Client(server.ws_url, rid, room["token"]).connect()
    bo = await Client(server.ws_url, rid, bo_seat["token"]).connect()
    for c in (ann, bo):
        await c.wait_for(lambda m: m["type"] == "snapshot")
    return rid, ann, bo


async def settle(clients: list[Client], quiet: float = 0.01) -> None:
    """Wait until every client has the room's latest seq and nothing more arrives."""
    top = max(c.seq for c in clients)
    for c in clients:
        await c.wait_seq(top)
    # every client's quiet time at once: one after the other cost quiet × clients a move
    await asyncio.gather(*(c.drain(quiet) for c in clients))


def awaiting_deal(view: dict[str, Any]) -> bool:
    """The match goes on but nobody is to move: a deal just ended, or a match (a
    rematch) just began, and the next deal (written in the same batch, or after
    Continue) has not reached this client yet."""
    return view["status"] == "playing" and view["to_move"] is None


async def settle_turn(clients: list[Client], timeout: float = 20) -> dict[str, Any]:
    """Settle, and when a deal has just ended, wait for the next deal too; returns the
    first client's view.  The patch that ends a deal (or begins a match) and the one
    of the next deal are sent one after the other, and a loaded machine can leave a
    gap between them longer than ``settle``'s quiet time: a client would then see
    nobody to move."""
    await settle(clients)
    if awaiting_deal(clients[0].view):
        await clients[0].wait_until(lambda: not awaiting_deal(clients[0].view), timeout)
        await settle(clients)
    return clients[0].view


async def converge(clients: list[Client], quiet: float = 0.02) -> int:
    """Wait until every client holds the same, latest seq, with nothing more arriving
    for ``quiet`` seconds; returns that seq."""
    while True:
        top = max(c.seq for c in clients)
        for c in clients:
            await c.wait_seq(top)
        await asyncio.gather(*(c.drain(quiet) for c in clients))
        if all(c.seq == top for c in clients):
            return top


async def play_random(clients: list[Client], n: int, rng: Any) -> list[dict[str, Any]]:
    """Up to ``n`` random legal moves, each by the seat to move once every client has
    caught up; returns {"seq", "card", "take"} of each acknowledged move."""
    acked: list[dict[str, Any]] = []
    for _ in range(n):
        v = await settle_turn(clients)
        if v["status"] != "playing":
            break
        mover = clients[v["to_move"]]
        move = rng.choice(mover.view["legal"])
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
        acked.append({"seq": ack["seq"], **move})
    await settle(clients)
    return acked


def finished_room(server: ServerProcess, timeout: float = 30) -> dict[str, Any]:
    """A room whose one-deal match bots played to the end: a bot seat, and Ann's seat
    autoplayed at once (grace 0, she never connects) while a spectator watches (bots
    play only while someone is there).  Returns create_room's answer."""
    room = create_room(
        server.url, 2, bots=1, rules={"single_pack": True, "match_deals": 1}, grace=0, bot_delay=0
    )
    watch_until_finished(server.url, room["room_id"], timeout)
    return room


def watch_until_finished(base_url: str, room_id: str, timeout: float = 30) -> None:
    """Watch a room (as a spectator) until its match is over."""
    from websockets.sync.client import connect

    ws_url = base_url.replace("http", "ws", 1)
    with connect(f"{ws_url}/ws/rooms/{room_id}", max_size=2**22) as watcher:
        watcher.send(json.dumps({"type": "hello", "token": None}))

        def finished() -> bool:
            try:  # read what comes, or the socket's buffer fills and closing it blocks
                while True:
                    watcher.recv(timeout=0.05)
            except TimeoutError:
                pass
            summary = fetch.get(f"{base_url}/api/rooms/{room_id}", timeout=5).json()
            return bool(summary["status"] == "finished")

        wait_until(finished, timeout, 0, "the bots to finish the match")
