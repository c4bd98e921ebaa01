"""The HTTP abuse limits, against a real server process with the real defaults.

Each limit has its abusive client, refused as docs/deploy.md says, while a
normal client (127.0.0.1 itself, without a forwarded address) keeps creating
rooms and plays a real game over the WebSocket, every one of its requests and
moves succeeding.  The abusive clients come through 127.0.0.1 too, the trusted
proxy by default, each with an address of its own in X-Forwarded-For (TEST-NET
addresses), so they are counted apart from the normal client: as behind nginx.

The abuse runs in a thread on blocking sockets: after a server closes a socket
with unread data, the kernel still hands over the answer it sent, which asyncio's
streams would drop with the reset.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

from app.config import Settings
from tests import fetch
from tests.conftest import ROOT, run_async
from tests.waiting import wait_until

from .harness import ServerProcess, free_port, metric, play_random, sql, two_players

T = TypeVar("T")
DEFAULTS = {name: field.default for name, field in Settings.model_fields.items()}
REAL_LIMITS = {
    "ROOM_CREATE_PER_MINUTE": str(DEFAULTS["room_create_per_minute"]),
    "JOIN_PER_MINUTE": str(DEFAULTS["join_per_minute"]),
    "CODE_LOOKUP_PER_MINUTE": str(DEFAULTS["code_lookup_per_minute"]),
    "MAX_BODY_BYTES": str(DEFAULTS["max_body_bytes"]),
}
"""The shipped defaults, set explicitly: the harness turns the rate limits off."""
MOVES = 12
"""Moves the normal players make while the abuse goes on, and again after it."""
HARNESS_WAIT = 30.0
"""How long a socket waits for the server to answer or close it (a hang fails)."""
PLAIN_GET = b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"


def start(tmp_path: Path, **env: str) -> ServerProcess:
    return ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/db.sqlite",
        env={**REAL_LIMITS, **env},
        log_path=tmp_path / "server.log",
    ).start()


QUICK_TIMEOUT = "3"
"""The header and idle timeouts of ``quick``, in seconds: short, so that the tests
that wait for a cut are quick, and long enough that a normal client on a loaded
machine is never cut.  At 1 s, one full run saw a normal client's fresh connection
closed before its first request's headers were read (httpx.ReadError on its
``POST /api/rooms``), and one saw a kept-alive connection closed as its next request
went out."""


@contextlib.contextmanager
def serving(tmp_path: Path, **env: str) -> Iterator[ServerProcess]:
    proc = start(tmp_path, **env)
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the real limits and the shipped timeouts."""
    with serving(tmp_path) as proc:
        yield proc


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the real limits and QUICK_TIMEOUT header and idle timeouts."""
    with serving(tmp_path, HEADER_TIMEOUT=QUICK_TIMEOUT, IDLE_TIMEOUT=QUICK_TIMEOUT) as proc:
        yield proc


def forwarded(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def rooms_in_database(server: ServerProcess) -> int:
    return sql(server.database_url, "SELECT count(*) FROM rooms")[0][0]


async def normal_http(server: ServerProcess) -> None:
    """The normal client's HTTP, as the browser does it: a new room, a second seat in
    it, its code looked up.  Every request must succeed."""
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        r = await http.post("/api/rooms", json={"players": 2, "name": "Nora"})
        assert r.status_code == 201, r.text
        room = r.json()
        r = await http.post(f"/api/rooms/{room['room_id']}/seats", json={"name": "Nils"})
        assert r.status_code == 201, r.text
        r = await http.get(f"/api/codes/{room['code']}")
        assert r.status_code == 200 and r.json() == {"room_id": room["room_id"]}, r.text


def meanwhile(server: ServerProcess, abuse: Callable[[threading.Event], T], seed: int = 1) -> T:
    """Run ``abuse`` (in a thread; it stops when the event is set, or when it is done if
    that is later) while the normal client plays MOVES moves of a game, creates a room
    and plays MOVES more on the same WebSockets once the abuse is over.  Returns what
    ``abuse`` returned."""

    async def scenario() -> T:
        _, ann, bo = await two_players(server)
        rng = random.Random(seed)
        stop = threading.Event()
        task = asyncio.ensure_future(asyncio.to_thread(abuse, stop))
        try:
            during = await play_random([ann, bo], MOVES, rng)
            await normal_http(server)
        finally:
            stop.set()
            result = await task
        after = await play_random([ann, bo], MOVES, rng)
        await normal_http(server)
        for c in (ann, bo):
            await c.close()
        assert len(during) == MOVES and len(after) == MOVES, "every move was acknowledged"
        return result

    return run_async(scenario())


def hammer(
    server: ServerProcess,
    stop: threading.Event,
    request: Callable[[httpx.Client], httpx.Response],
    at_least: int,
) -> list[httpx.Response]:
    """Send ``request`` over and over, as fast as answers come, at least ``at_least``
    times and until ``stop`` is set."""
    answers: list[httpx.Response] = []
    with httpx.Client(base_url=server.url, timeout=HARNESS_WAIT) as http:
        while len(answers) < at_least or not stop.is_set():
            answers.append(resent_once_closed(http, request))
    return answers


def resent_once_closed(
    http: httpx.Client, request: Callable[[httpx.Client], httpx.Response]
) -> httpx.Response:
    """``request``, sent again once on a new connection when the server had closed the
    kept-alive one as it went out.  The server closes a connection idle for IDLE_TIMEOUT,
    and on a loaded machine this thread can wait that long between two requests: a
    loaded run (at 1 s) saw "Server disconnected without sending a response" on the 85th
    request of one connection.  A connection closed for idling never read that request,
    so nothing was counted, and a browser sends it again the same way."""
    try:
        return request(http)
    except (httpx.RemoteProtocolError, httpx.ReadError):
        return request(http)


def assert_refusals(
    answers: list[httpx.Response], allowed: int, kind: str, server: ServerProcess, ok: set[int]
) -> None:
    """The first ``allowed`` answers are the endpoint's own, then come 429s as
    documented (and the odd answer of the endpoint as the budget refills), most of the
    flood is refused, and every 429 was counted under ``kind``."""
    statuses = [a.status_code for a in answers]
    assert set(statuses[:allowed]) <= ok, statuses[:allowed]
    assert set(statuses) <= ok | {429}, statuses
    refused = answers[statuses.index(429)]
    assert refused.json()["code"] == "rate_limited" and set(refused.json()) == {"code", "message"}
    assert "your address" in refused.json()["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    refusals = statuses.count(429)
    assert refusals > len(statuses) / 2, "the flood is mostly refused"
    assert metric(server, "krypkasino_rate_limited_total", kind=kind) == refusals


# ------------------------------------------------------------------ request bodies


def chunked_flood(port: int, address: str, total: int = 200 * 2**20) -> tuple[bytes, int]:
    """POST /api/rooms with a chunked body of ``total`` bytes, as fast as the server
    takes it; returns (everything the server answered before closing, bytes sent)."""
    chunk = 64 * 1024
    frame = b"%x\r\n" % chunk + b" " * chunk + b"\r\n"
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=HARNESS_WAIT) as s:
        s.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nX-Forwarded-For: " + address.encode() + b"\r\n\r\n"
        )
        try:
            while sent < total:
                s.sendall(frame)
                sent += chunk
            s.sendall(b"0\r\n\r\n")
        except OSError:  # the server closed the connection: what it answered is queued
            pass
        return read_to_end(s), sent


def read_to_end(s: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            block = s.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            return data
        if not block:
            return data
        data += block


def parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {
        k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])
    }
    return int(lines[0].split()[1]), headers, body


def open_sockets(pid: int) -> int:
    """How many sockets the process ``pid`` holds open."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except FileNotFoundError:  # closed since listed
            pass
    return count


def resident_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_a_chunked_body_is_cut_off_at_max_body_bytes_while_others_play(
    limited: ServerProcess,
) -> None:
    assert limited.proc is not None
    rss_before = resident_bytes(limited.proc.pid)
    rooms_before = rooms_in_database(limited)

    def abuse(stop: threading.Event) -> list[tuple[bytes, int]]:
        floods = [chunked_flood(limited.port, "203.0.113.1")]
        while not stop.is_set():
            floods.append(chunked_flood(limited.port, "203.0.113.1"))
        return floods

    floods = meanwhile(limited, abuse)
    for raw, sent in floods:
        status, headers, body = parse(raw)
        assert status == 413 and json.loads(body)["code"] == "too_large", raw[:300]
        assert headers["connection"] == "close"
        # The server stopped reading: what got out of the client is what the socket
        # buffers took, not the 200 MB.
        assert sent < 32 * 2**20, sent
    assert rooms_in_database(limited) == rooms_before + 3, "the normal client's rooms only"
    grown = resident_bytes(limited.proc.pid) - rss_before
    assert grown < 50 * 2**20, f"the server grew by {grown / 2**20:.0f} MB"


def exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one raw request; the server's answer up to its close or, kept alive, up to
    the end of its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=HARNESS_WAIT) as s:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            block = s.recv(65536)
            assert block, data
            data += block
        status, headers, body = parse(data)
        while len(body) < int(headers.get("content-length", "0")):
            body += s.recv(65536)
        return status, headers, body


def test_body_limit_is_exact_and_a_declared_length_is_refused_unread(
    limited: ServerProcess,
) -> None:
    limit = DEFAULTS["max_body_bytes"]
    room = json.dumps({"players": 2, "name": "Ann"}).encode()

    def chunked(body: bytes) -> bytes:
        return (
            b"POST /api/rooms HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
        )

    exact = room + b" " * (limit - len(room))  # JSON padded with spaces
    status, _, body = exchange(limited.port, chunked(exact))
    assert status == 201, body
    status, headers, body = exchange(limited.port, chunked(exact + b" "))
    assert status == 413 and json.loads(body)["code"] == "too_large"
    assert headers["connection"] == "close"
    # A declared length over the limit is answered at once: no byte of the body sent.
    status, headers, body = exchange(
        limited.port,
        b"POST /api/rooms HTTP/1.1\r\nHost: test\r\nContent-Type: application/json"
        b"\r\nContent-Length: 1000000000\r\n\r\n",
    )
    assert status == 413 and json.loads(body) == {
        "code": "too_large",
        "message": f"request bodies are limited to {limit} bytes",
    }
    assert headers["connection"] == "close"
    # A body nobody reads (GET /healthz with one) ends the connection after the answer.
    status, headers, _ = exchange(
        limited.port,
        b"GET /healthz HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
    )
    assert status == 200 and headers["connection"] == "close"
    status, headers, _ = exchange(limited.port, PLAIN_GET)
    assert status == 200 and "connection" not in headers, "no body: kept alive"


# ------------------------------------------------------------------ header and idle timeouts

HALF_SENT = [
    b"",  # connects and says nothing
    b"G",
    b"POST /api/rooms HTTP/1.1\r\n",
    b"POST /api/rooms HTTP/1.1\r\nHost: test\r\nContent-Type: appl",
    PLAIN_GET + b"GET /healthz HTTP/1.1\r\nHost:",  # a kept-alive second request, half sent
]


def test_half_sent_requests_are_closed_after_header_timeout_while_others_play(
    quick: ServerProcess,
) -> None:
    assert quick.proc is not None
    pid = quick.proc.pid
    sockets_before = open_sockets(pid)

    def abuse(stop: threading.Event) -> list[bytes]:
        sockets = []
        for i in range(300):
            s = socket.create_connection(("127.0.0.1", quick.port), timeout=HARNESS_WAIT)
            s.sendall(HALF_SENT[i % len(HALF_SENT)])
            sockets.append(s)
        # Each is closed by the server (a hang would fail here, after HARNESS_WAIT).
        answers = [read_to_end(s) for s in sockets]
        for s in sockets:
            s.close()
        return answers

    answers = meanwhile(quick, abuse)
    for i, answer in enumerate(answers):
        # Closed without an answer; the kept-alive one got its first answer only.
        assert answer.count(b"HTTP/1.1 200") == (1 if i % len(HALF_SENT) == 4 else 0), answer
    # The server's sockets, not all its files: its database connections (and their
    # files) are opened as load asks for them, a few more on a busy machine.
    wait_until(
        lambda: open_sockets(pid) <= sockets_before + 10,
        HARNESS_WAIT,
        message=lambda: f"the sockets to be let go: {open_sockets(pid)}, {sockets_before} before",
    )


def test_a_request_whose_headers_come_in_pieces_in_time_is_served(quick: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=HARNESS_WAIT) as s:
        for piece in (b"GET /healthz HT", b"TP/1.1\r\nHost: te", b"st\r\n\r\n"):
            s.sendall(piece)
            time.sleep(0.1)
        assert s.recv(65536).startswith(b"HTTP/1.1 200")


def test_an_idle_kept_alive_connection_is_closed_after_idle_timeout(quick: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=HARNESS_WAIT) as s:
        s.sendall(PLAIN_GET)
        answer = read_to_end(s)  # returns once the server closes the idle connection
    assert answer.startswith(b"HTTP/1.1 200") and answer.count(b"HTTP/1.1") == 1


# ------------------------------------------------------------------ rate limits


def test_room_creation_is_limited_per_address_while_others_play(limited: ServerProcess) -> None:
    allowed = DEFAULTS["room_create_per_minute"]
    rooms_before = rooms_in_database(limited)
    abuser = forwarded("203.0.113.10")

    def create(http: httpx.Client) -> httpx.Response:
        return http.post("/api/rooms", json={"players": 2, "name": "Spam"}, headers=abuser)

    answers = meanwhile(limited, lambda stop: hammer(limited, stop, create, 3 * allowed))
    assert_refusals(answers, allowed, "room_create", limited, {201})
    created = sum(a.status_code == 201 for a in answers)
    # Refusals made nothing: the abuser's rooms, and the normal client's three.
    assert rooms_in_database(limited) == rooms_before + created + 3


def test_seat_joins_are_limited_per_address_while_others_play(limited: ServerProcess) -> None:
    allowed = DEFAULTS["join_per_minute"]
    room = fetch.post(
        limited.url + "/api/rooms",
        json={"players": 6, "name": "Host"},
        headers=forwarded("203.0.113.20"),
    ).json()
    abuser = forwarded("203.0.113.21")

    names = itertools.count()

    def take_seat(http: httpx.Client) -> httpx.Response:
        # a name of its own each time: two seats may not share a name (issue 46)
        name = f"Spam {next(names)}"
        return http.post(f"/api/rooms/{room['room_id']}/seats", json={"name": name}, headers=abuser)

    answers = meanwhile(limited, lambda stop: hammer(limited, stop, take_seat, 3 * allowed))
    statuses = [a.status_code for a in answers]
    assert statuses[:allowed] == [201] * 5 + [409] * (allowed - 5), "five free seats, then full"
    assert_refusals(answers, allowed, "join", limited, {201, 409})
    seats = fetch.get(f"{limited.url}/api/rooms/{room['room_id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Host"] + [f"Spam {i}" for i in range(5)]


def test_guessing_room_codes_is_limited_per_address_while_others_play(
    limited: ServerProcess,
) -> None:
    allowed = DEFAULTS["code_lookup_per_minute"]
    rng = random.Random(403)
    abuser = forwarded("203.0.113.30")

    def guess(http: httpx.Client) -> httpx.Response:
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        return http.get(f"/api/codes/{code}", headers=abuser)

    answers = meanwhile(limited, lambda stop: hammer(limited, stop, guess, 3 * allowed))
    assert_refusals(answers, allowed, "code_lookup", limited, {404})


def test_each_forwarded_address_has_its_own_budget_from_the_trusted_proxy(
    limited: ServerProcess,
) -> None:
    allowed = DEFAULTS["room_create_per_minute"]
    body = {"players": 2, "name": "Ann"}
    with httpx.Client(base_url=limited.url, timeout=10) as http:
        first = [
            http.post("/api/rooms", json=body, headers=forwarded("198.51.100.1")).status_code
            for _ in range(allowed + 1)
        ]
        assert first == [201] * allowed + [429]
        # Another forwarded address, and the proxy's own requests, are counted apart.
        second = [
            http.post("/api/rooms", json=body, headers=forwarded("198.51.100.2")).status_code
            for _ in range(allowed)
        ]
        assert second == [201] * allowed
        # The client is the address the trusted proxy saw (the last one): one the
        # client put in front of it does not buy a fresh budget.
        spoofed = forwarded("192.0.2.99, 198.51.100.2")
        assert http.post("/api/rooms", json=body, headers=spoofed).status_code == 429
        assert http.post("/api/rooms", json=body).status_code == 201


def test_forwarded_addresses_from_an_untrusted_peer_are_ignored(tmp_path: Path) -> None:
    """TRUSTED_PROXIES names another address (and wins over FORWARDED_ALLOW_IPS, the
    older name, which would trust 127.0.0.1): every request from 127.0.0.1 is counted
    as 127.0.0.1's, whatever it forwards.  The game's WebSockets are not affected."""
    allowed = DEFAULTS["room_create_per_minute"]
    server = start(tmp_path, TRUSTED_PROXIES="192.0.2.1", FORWARDED_ALLOW_IPS="127.0.0.1")
    try:

        def abuse(stop: threading.Event) -> list[int]:
            body = {"players": 2, "name": "Ann"}
            with httpx.Client(base_url=server.url, timeout=10) as http:
                statuses = [
                    http.post(
                        "/api/rooms", json=body, headers=forwarded(f"198.51.100.{i}")
                    ).status_code
                    for i in range(allowed + 5)
                ]
                return statuses + [http.post("/api/rooms", json=body).status_code]

        async def scenario() -> list[int]:
            _, ann, bo = await two_players(server)  # one room from 127.0.0.1
            statuses = await asyncio.to_thread(abuse, threading.Event())
            moves = await play_random([ann, bo], MOVES, random.Random(2))
            assert len(moves) == MOVES
            for c in (ann, bo):
                await c.close()
            return statuses

        statuses = run_async(scenario())
        assert statuses == [201] * (allowed - 1) + [429] * 7, "one budget for all of them"
    finally:
        server.stop()


def test_zero_turns_the_rate_limits_off(tmp_path: Path) -> None:
    server = start(
        tmp_path, ROOM_CREATE_PER_MINUTE="0", JOIN_PER_MINUTE="0", CODE_LOOKUP_PER_MINUTE="0"
    )
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            for _ in range(DEFAULTS["room_create_per_minute"] + 5):
                room = http.post("/api/rooms", json={"players": 6, "name": "Ann"}).json()
            for _ in range(DEFAULTS["code_lookup_per_minute"] + 5):
                assert http.get(f"/api/codes/{room['code']}").status_code == 200
            statuses = {
                http.post(
                    f"/api/rooms/{room['room_id']}/seats", json={"name": f"Bo {i}"}
                ).status_code
                for i in range(DEFAULTS["join_per_minute"] + 5)
            }
            assert statuses == {201, 409}
        assert metric(server, "krypkasino_rate_limited_total", kind="room_create") == 0
    finally:
        server.stop()


# ------------------------------------------------------------------ free text

BAD_NAMES = [
    "A\\u0000",
    "\\u0000",
    "A\\ud800",
    "\\udfff B",
    "A\\u0007",
    "A\\nB",
    "A\\tB",
    "A\\u2028B",
    "A\\u2029B",
    "A\\u0085B",
    "   ",
    "",
    "x" * 41,
]
"""JSON string bodies as sent on the wire (escapes included)."""


def test_names_and_texts_a_database_cannot_take_get_422_and_change_nothing(
    database_url: str, tmp_path: Path
) -> None:
    import hashlib

    token = "an-admin-token-for-tests"
    admin = {"Authorization": f"Bearer {token}"}
    server = ServerProcess(
        database_url,
        log_path=tmp_path / "server.log",
        env={"ADMIN_TOKEN_HASH": hashlib.sha256(token.encode()).hexdigest()},
    ).start()
    try:
        run_async(refuse_texts(server, admin))
    finally:
        server.stop()


async def refuse_texts(server: ServerProcess, admin: dict[str, str]) -> None:
    rid, ann, bo = await two_players(server)
    waiting = fetch.post(server.url + "/api/rooms", json={"players": 3, "name": "Åsa 👩‍💻"}).json()
    rooms_before = rooms_in_database(server)
    summaries = [fetch.get(f"{server.url}/api/rooms/{r}").json() for r in (rid, waiting["room_id"])]
    json_type = {"Content-Type": "application/json"}
    for name in BAD_NAMES:
        for url, body in (
            (f"{server.url}/api/rooms", '{"players": 2, "name": "%s"}'),
            (f"{server.url}/api/rooms/{waiting['room_id']}/seats", '{"name": "%s"}'),
        ):
            r = fetch.post(url, content=(body % name).encode(), headers=json_type)
            assert r.status_code == 422, (name, r.text)
            assert r.json()["code"] == "bad_request" and "name" in r.json()["message"], r.text
    # An unescaped control character or bytes that are not UTF-8: not JSON at all.
    for raw in (b'{"players": 2, "name": "A\x00"}', b'{"players": 2, "name": "A\xff"}'):
        r = fetch.post(f"{server.url}/api/rooms", content=raw, headers=json_type)
        assert r.status_code in (400, 422) and r.json()["code"] == "bad_request", r.text
    # The admin's close reason is stored too.
    for reason in ("\\u0000", "a\\ud800", "two\\nlines"):
        r = fetch.post(
            f"{server.url}/api/admin/rooms/{rid}/close",
            headers={**admin, **json_type},
            content=('{"reason": "' + reason + '"}').encode(),
        )
        assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    # A play's id is stored with the move: printable ASCII only.
    mover = (ann, bo)[ann.view["to_move"]]
    seq = mover.seq
    move = mover.view["legal"][0]
    for bad_id in ("a\u0000", "a b", "é", "\u2028", "a" * 65, ""):
        await mover.ws.send(
            json.dumps({"type": "play", "id": bad_id, "card": move["card"], "take": move["take"]})
        )
        err = await mover.wait_for(lambda m: m["type"] in ("error", "ack"))
        assert err["type"] == "error" and err["code"] == "bad_message", (bad_id, err)
    assert rooms_in_database(server) == rooms_before
    assert [
        fetch.get(f"{server.url}/api/rooms/{r}").json() for r in (rid, waiting["room_id"])
    ] == summaries, "nothing changed"
    assert summaries[1]["seats"][0]["name"] == "Åsa 👩‍💻"
    # ... and the game goes on, and the room takes good names and reasons.
    ack = await mover.play(move["card"], move["take"], msg_id="~id:0x21-0x7E!")
    assert ack["type"] == "ack" and ack["seq"] == seq + 1
    r = fetch.post(f"{server.url}/api/rooms/{waiting['room_id']}/seats", json={"name": " Björn "})
    assert r.status_code == 201
    seats = fetch.get(f"{server.url}/api/rooms/{waiting['room_id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Åsa 👩‍💻", "Björn", None]
    r = fetch.post(
        f"{server.url}/api/admin/rooms/{rid}/close",
        headers=admin,
        json={"reason": "Stängt för underhåll"},
    )
    assert r.status_code == 200, r.text
    closed = fetch.get(f"{server.url}/api/rooms/{rid}").json()["closed"]
    assert closed["reason"] == "Stängt för underhåll"
    for c in (ann, bo):
        await c.close()


# ------------------------------------------------------------------ open files


def test_serve_raises_the_open_files_soft_limit_to_the_hard_limit(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip(f"the hard limit ({hard}) leaves nothing to raise")
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/db.sqlite",
        "LOG_LEVEL": "info",
        "LOG_JSON": "false",
    }
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)),
        )
        try:

            def started() -> bool:
                assert proc.poll() is None, log.read_text()
                return "Application startup complete" in log.read_text()

            wait_until(started, HARNESS_WAIT, message=lambda: f"start-up: {log.read_text()}")
            limits = Path(f"/proc/{proc.pid}/limits").read_text()
        finally:
            proc.terminate()
            proc.wait(15)
    row = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    soft_now, hard_now = row.split()[3:5]
    assert soft_now == hard_now != "256", row
    assert f"open files limit: soft 256 -> {soft_now}" in log.read_text()
