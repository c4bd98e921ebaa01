"""Memory benchmark (not a test): what an idle WebSocket costs the server.

    .venv/bin/python bench/idle_sockets.py --sockets 2000 --rooms 20

Starts ``krypkasino serve`` on a fresh SQLite file, creates ``--rooms`` rooms,
opens ``--sockets`` spectator connections spread over them (each sends its
``hello`` and receives its snapshot, as a browser does), lets them sit idle,
and reports the server's resident memory before and after, per connection.
Then one move is played in every room, so every spectator receives one patch
(compressed, if compression is on) and the measurement is repeated: a
per-connection compression context kept after the first message is what makes
an idle socket expensive.  ``--no-compression`` starts the server with
WS_COMPRESSION=false for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.harness import ServerProcess  # noqa: E402


def rss_kb(pid: int) -> int:
    """The process's resident set, from /proc (kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def spectator(url: str, opened: list[websockets.ClientConnection]) -> None:
    ws = await websockets.connect(url, max_size=2**22, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "token": None}))
    while json.loads(await ws.recv())["type"] != "snapshot":
        pass
    opened.append(ws)


async def settle_rss(pid: int, seconds: float = 2.0) -> int:
    await asyncio.sleep(seconds)
    return rss_kb(pid)


async def run(args: argparse.Namespace) -> dict[str, object]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.sockets + 1024)), hard))
    tmp = Path(tempfile.mkdtemp())
    env = {"WS_COMPRESSION": "false" if args.no_compression else "true"}
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/bench.db", env=env).start()
    assert server.proc is not None
    pid = server.proc.pid
    try:
        rooms = []
        with httpx.Client(base_url=server.url) as http:
            for _ in range(args.rooms):
                room = http.post("/api/rooms", json={"players": 2, "name": "Ann"}).json()
                bo = http.post(f"/api/rooms/{room['room_id']}/seats", json={"name": "Bo"}).json()
                rooms.append((room["room_id"], room["token"], bo["token"]))
        players = []
        for rid, *tokens in rooms:
            for token in tokens:
                ws = await websockets.connect(
                    f"{server.ws_url}/ws/rooms/{rid}", max_size=2**22, ping_interval=None
                )
                await ws.send(json.dumps({"type": "hello", "token": token}))
                players.append((rid, ws))
        base = await settle_rss(pid)
        opened: list[websockets.ClientConnection] = []
        started = time.monotonic()
        for i in range(0, args.sockets, 200):
            batch = [
                spectator(f"{server.ws_url}/ws/rooms/{rooms[j % len(rooms)][0]}", opened)
                for j in range(i, min(args.sockets, i + 200))
            ]
            await asyncio.gather(*batch)
        connect_s = time.monotonic() - started
        after_snapshot = await settle_rss(pid)
        # One move per room: every spectator receives one patch.
        for rid, ws in players:
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "snapshot":
                    view = msg["view"]
                    break
            if view.get("to_move") == view.get("you"):
                move = view["legal"][0]
                await ws.send(
                    json.dumps(
                        {
                            "type": "play",
                            "id": f"b-{rid}",
                            "card": move["card"],
                            "take": move.get("take", []),
                        }
                    )
                )
        after_patch = await settle_rss(pid, 4.0)
        n = len(opened)
        return {
            "sockets": n,
            "rooms": args.rooms,
            "compression": not args.no_compression,
            "connect_seconds": round(connect_s, 1),
            "server_rss_mb_base": round(base / 1024, 1),
            "kb_per_socket_after_snapshot": round((after_snapshot - base) / n, 1),
            "kb_per_socket_after_a_patch": round((after_patch - base) / n, 1),
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--no-compression", action="store_true")
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
