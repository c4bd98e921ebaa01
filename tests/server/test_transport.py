"""How the server process talks and runs: permessage-deflate on by default (without
context takeover, app/realtime/deflate.py), off with WS_COMPRESSION=false, and its
start-up settings checked before it listens.

Compression is what makes a patch a small fraction of a snapshot on the
wire; a client that does not offer it must still be served plain frames.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from tests.conftest import run_async

from .harness import ServerProcess, create_room, received, settle, two_players


async def first_snapshot(server: ServerProcess, compression: str | None) -> tuple[list, dict]:
    room = create_room(server.url, 2)
    async with websockets.connect(
        f"{server.ws_url}/ws/rooms/{room['room_id']}", compression=compression
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        while True:
            msg = await received(ws, 30)
            if msg["type"] == "snapshot":
                return list(ws.protocol.extensions), msg


def test_compression_is_negotiated_and_optional_for_clients(server: ServerProcess) -> None:
    extensions, snapshot = run_async(first_snapshot(server, "deflate"))
    assert [type(e) for e in extensions] == [PerMessageDeflate]
    assert extensions[0].remote_max_window_bits == 12  # the server's small window
    # Neither side keeps a compression context between messages (app/realtime/deflate.py).
    assert extensions[0].remote_no_context_takeover and extensions[0].local_no_context_takeover
    assert snapshot["view"]["you"] == 0
    extensions, snapshot = run_async(first_snapshot(server, None))
    assert extensions == []
    assert snapshot["view"]["you"] == 0


def test_compression_can_be_turned_off(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(
        database_url, env={"WS_COMPRESSION": "false"}, log_path=tmp_path / "server.log"
    ).start()
    try:
        extensions, snapshot = run_async(first_snapshot(server, "deflate"))
        assert extensions == []
        assert snapshot["view"]["you"] == 0
    finally:
        server.stop()


def test_bad_gc_thresholds_stop_the_server_before_it_listens(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "server.log"
    server = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/x.db", env={"GC_THRESHOLDS": "700,10"}, log_path=log
    )
    started = True
    try:
        server.start(timeout=90)
    except RuntimeError as exc:
        assert "exited" in str(exc)
        started = False
    finally:
        server.stop()
    assert not started, "the server started with GC_THRESHOLDS=700,10"
    assert "GC_THRESHOLDS must be three positive integers" in log.read_text()


def test_a_players_own_play_brings_its_patch_first_then_its_ack(server: ServerProcess) -> None:
    """The patch of a play and its ack leave the server in one write to the player who
    made it (app/api/ws.py, ``Connection.hold``); the patch still comes first, as for
    every other receiver, and each play's pair is whole."""

    async def scenario() -> list[list[str]]:
        _, a, b = await two_players(server)
        pairs: list[list[str]] = []
        try:
            for _ in range(6):
                await settle([a, b])
                mover = a if a.view and a.view["to_move"] == 0 else b
                seq = mover.seq
                move = mover.view["legal"][0]  # type: ignore[index]
                before = len(mover.received)
                ack = await mover.play(move["card"], move["take"])
                assert ack["type"] == "ack" and ack["seq"] == seq + 1
                got = [json.loads(r) for r in mover.received[before:]]
                pairs.append([f"{m['type']}:{m.get('seq')}" for m in got])
        finally:
            await a.close()
            await b.close()
        return pairs

    pairs = run_async(scenario())
    for pair in pairs:
        *_, patch, ack = pair
        assert patch.startswith("patch:") and ack.startswith("ack:"), pair
        assert patch.split(":")[1] == ack.split(":")[1], "the patch of that very play"


def test_frames_split_into_single_bytes_and_fragmented_messages_are_read(
    server: ServerProcess,
) -> None:
    """The server reads plain text frames itself (app/realtime/frames.py) and leaves the rest
    to the websockets library: a hello that arrives a byte at a time, a ping frame
    between messages and a message in fragments are all read as a client sent them."""

    async def until(ws: websockets.ClientConnection, kind: str) -> str:
        while (msg := await received(ws, 30))["type"] != kind:
            pass
        return str(msg["type"])

    async def scenario() -> list[str]:
        room = create_room(server.url, 2)
        url = f"{server.ws_url}/ws/rooms/{room['room_id']}"
        seen: list[str] = []
        async with websockets.connect(url, compression=None, ping_interval=None) as ws:
            hello = json.dumps({"type": "hello", "token": room["token"]}).encode()
            raw = Frame(Opcode.TEXT, hello).serialize(mask=True, extensions=[])
            for i in range(len(raw)):
                ws.transport.write(raw[i : i + 1])
                await asyncio.sleep(0.001)
            seen.append(await until(ws, "snapshot"))
            pong_waiter = await ws.ping(b"p1")  # a control frame to the library
            await ws.send('{"type":"ping"}')
            seen.append(await until(ws, "pong"))
            await asyncio.wait_for(pong_waiter, 10)
            seen.append("pong-frame")
            await ws.send(iter(['{"type":', '"ping"}']))  # fragmented: the library reads it
            seen.append(await until(ws, "pong"))
            await ws.send('{"type":"ping"}')  # and every message after it
            seen.append(await until(ws, "pong"))
        return seen

    assert run_async(scenario()) == ["snapshot", "pong", "pong-frame", "pong", "pong"]


class PingCounting(websockets.ClientConnection):
    """A client connection that counts the server's ping frames (it still answers them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pings = 0

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.opcode is Opcode.PING:
            self.pings += 1
        super().process_event(event)


def test_the_server_pings_only_a_client_that_has_been_silent(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """WS_PING_INTERVAL is the silence after which the server pings (app/realtime/deflate.py,
    ``send_keepalive_ping``): a client that sends something more often than that is
    never pinged, one that only listens is pinged about once an interval, and
    answering keeps it connected.

    The interval is long beside the talking client's pace (15 messages an interval),
    so that a loaded machine stalling the client or the server for a moment does not
    make a talking client look silent."""
    interval = 1.5
    server = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/krypkasino.db",  # pings do not touch the database
        env={"WS_PING_INTERVAL": str(interval)},
        log_path=tmp_path / "server.log",
    ).start()

    async def pings(talk_every: float | None, seconds: float) -> tuple[int, int]:
        room = create_room(server.url, 2)
        url = f"{server.ws_url}/ws/rooms/{room['room_id']}"
        async with websockets.connect(
            url, ping_interval=None, create_connection=PingCounting
        ) as ws:
            assert isinstance(ws, PingCounting)
            await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
            while (await received(ws, 30))["type"] != "snapshot":
                pass
            pongs = 0
            pinged_before = ws.pings  # counted over the window alone, not the set-up
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            while loop.time() < end:
                if talk_every is None:
                    await asyncio.sleep(end - loop.time())
                    continue
                await ws.send('{"type":"ping"}')
                while (await received(ws, 30))["type"] != "pong":
                    pass
                pongs += 1
                await asyncio.sleep(talk_every)
            pinged = ws.pings - pinged_before
            await ws.send('{"type":"ping"}')  # still open, after all that
            while (await received(ws, 30))["type"] != "pong":
                pass
            return pinged, pongs

    try:
        silent, _ = run_async(pings(None, 4 * interval))
        talking, pongs = run_async(pings(interval / 15, 4 * interval))
    finally:
        server.stop()
    # Silent: pinged at interval, 2 x interval, ... (a loaded machine may be late);
    # a window of 4 intervals holds at most 5 such times.
    assert 2 <= silent <= 5, silent
    assert pongs >= 10
    assert talking == 0, "a client that keeps talking is known to be alive"
