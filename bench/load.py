"""Load benchmark (not a test): N rooms x 4 scripted WebSocket players plus spectators
against one server process, one move per second per room.

    .venv/bin/python bench/load.py --rooms 250 --duration 60

Starts ``krypkasino serve`` on a fresh SQLite file (or use --url for a running
server), creates the rooms over HTTP, connects every player and spectator,
and has the seat to move in each room play a random legal move once a second.
Reports moves/s, the latency from sending ``play`` to receiving its patch at
every receiver (p50/p99/p99.9), bytes per patch vs per snapshot, and the
server's resident memory.

Bytes are given twice: as JSON text, and as they travel on the wire with the
server's permessage-deflate (each received frame's size is recorded before the
client decompresses it; a snapshot "now" is what a client connecting at that
moment would receive, compressed in a fresh context).  ``--no-compression``
starts the server with compression off.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import jsonpatch
import websockets
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Opcode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import gc_tuning  # noqa: E402
from tests.server.harness import ServerProcess  # noqa: E402


def frame_size(payload: int) -> int:
    """A server frame's size: unmasked header (2, 4 or 10 bytes) plus payload."""
    return payload + (2 if payload < 126 else 4 if payload < 65536 else 10)


@dataclass
class RoomRun:
    room_id: str
    tokens: list[str]
    sent_at: float | None = None
    sent_seq: int = -1
    finished: bool = False


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    patch_bytes: list[int] = field(default_factory=list)
    patch_wire: list[int] = field(default_factory=list)
    snapshot_bytes: list[int] = field(default_factory=list)
    snapshot_wire: list[int] = field(default_factory=list)
    snapshot_now_bytes: list[int] = field(default_factory=list)
    snapshot_now_wire: list[int] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


class Player:
    def __init__(self, url: str, run: RoomRun, token: str | None, stats: Stats) -> None:
        self.url, self.run, self.token, self.stats = url, run, token, stats
        self.view: dict | None = None
        self.seq = -1
        self.ws = None

    async def start(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=2**22, open_timeout=60)
        self.wire: deque[int] = deque()
        self.deflate = next(
            (e for e in self.ws.protocol.extensions if isinstance(e, PerMessageDeflate)), None
        )
        if self.deflate is not None:
            self._count_wire_bytes(self.deflate)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))

    def _count_wire_bytes(self, ext: PerMessageDeflate) -> None:
        """Record each data frame's size as it arrived, before decompression."""
        decode = ext.decode

        def counting(frame, **kw):  # type: ignore[no-untyped-def]
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                self.wire.append(frame_size(len(frame.data)))
            return decode(frame, **kw)

        ext.decode = counting  # type: ignore[method-assign]

    def wire_size(self, raw: str) -> int:
        """Bytes the message took on the wire (frame header included)."""
        if self.deflate is None:
            return frame_size(len(raw.encode()))
        return self.wire.popleft()

    def snapshot_on_new_connection(self, raw: bytes) -> int:
        """Wire size of a snapshot sent to a fresh connection (a new deflate context)."""
        if self.deflate is None:
            return frame_size(len(raw))
        z = zlib.compressobj(wbits=-self.deflate.remote_max_window_bits, memLevel=5)
        return frame_size(len(z.compress(raw) + z.flush(zlib.Z_SYNC_FLUSH)) - 4)

    async def listen(self, stop: asyncio.Event) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                wire = self.wire_size(raw)
                if msg["type"] == "snapshot":
                    self.stats.snapshot_bytes.append(len(raw))
                    self.stats.snapshot_wire.append(wire)
                    self.view, self.seq = msg["view"], msg["seq"]
                elif msg["type"] == "patch":
                    self.stats.patch_bytes.append(len(raw))
                    self.stats.patch_wire.append(wire)
                    self.view = jsonpatch.apply_patch(self.view, msg["ops"], in_place=True)
                    self.seq = msg["seq"]
                    if self.seq % 7 == 0:  # what a snapshot would weigh at this point
                        snap = json.dumps(
                            {"type": "snapshot", "seq": self.seq, "view": self.view},
                            separators=(",", ":"),
                        ).encode()
                        self.stats.snapshot_now_bytes.append(len(snap))
                        self.stats.snapshot_now_wire.append(self.snapshot_on_new_connection(snap))
                    r = self.run
                    if r.sent_at is not None and msg["seq"] == r.sent_seq + 1:
                        self.stats.latencies.append(time.perf_counter() - r.sent_at)
                elif msg["type"] == "error":
                    self.stats.errors += 1
                if stop.is_set():
                    return
        except websockets.ConnectionClosed:
            return


async def drive_room(
    run: RoomRun, players: list[Player], stats: Stats, stop: asyncio.Event, rng: random.Random
) -> None:
    await asyncio.sleep(rng.random())  # spread the rooms over the second
    while not stop.is_set():
        tick = time.perf_counter()
        view = players[0].view
        if view is not None and view["status"] == "finished":
            run.finished = True
            return
        if view is not None and view["to_move"] is not None:
            mover = players[view["to_move"]]
            if mover.view is not None and mover.seq == players[0].seq and mover.view["legal"]:
                move = rng.choice(mover.view["legal"])
                run.sent_seq, run.sent_at = mover.seq, time.perf_counter()
                await mover.ws.send(
                    json.dumps(
                        {
                            "type": "play",
                            "id": f"{run.room_id}-{mover.seq}",
                            "card": move["card"],
                            "take": move["take"],
                        }
                    )
                )
                stats.moves += 1
        await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def main_async(args: argparse.Namespace) -> dict:
    server = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        tmp = tempfile.mkdtemp(prefix="kk-load-")
        env = {
            "RATE_PER_SECOND": "50",
            "LOG_LEVEL": "warning",
            "WS_COMPRESSION": "false" if args.no_compression else "true",
        }
        if args.gc_thresholds is not None:
            env["GC_THRESHOLDS"] = args.gc_thresholds
        server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/load.db", env=env)
        server.start()
        base = server.url
    ws_base = base.replace("http", "ws", 1)
    stats = Stats()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        runs: list[RoomRun] = []
        for _ in range(args.rooms):
            r = (
                await http.post(
                    "/api/rooms", json={"players": 4, "name": "P0", "rules": {"match_deals": 100}}
                )
            ).json()
            tokens = [r["token"]]
            for n in range(1, 4):
                tokens.append(
                    (
                        await http.post(f"/api/rooms/{r['room_id']}/seats", json={"name": f"P{n}"})
                    ).json()["token"]
                )
            runs.append(RoomRun(r["room_id"], tokens))
    stop = asyncio.Event()
    all_players: list[Player] = []
    per_room: list[list[Player]] = []
    for run in runs:
        url = f"{ws_base}/ws/rooms/{run.room_id}"
        ps = [Player(url, run, t, stats) for t in run.tokens]
        ps += [Player(url, run, None, stats) for _ in range(args.spectators)]
        per_room.append(ps)
        all_players.extend(ps)
    for i in range(0, len(all_players), 50):
        await asyncio.gather(*(p.start() for p in all_players[i : i + 50]))
    listeners = [asyncio.create_task(p.listen(stop)) for p in all_players]
    await asyncio.sleep(2)
    # The load generator holds as many connections as the server: tuned the same
    # way, so that its own collector pauses do not count as server latency.
    gc_tuning.tune(gc_tuning.parse_thresholds(gc_tuning.DEFAULT_THRESHOLDS))
    stats.latencies.clear()
    stats.moves = 0
    mem_before = rss_mb(server.proc.pid) if server else float("nan")
    cpu_before = cpu_seconds(server.proc.pid) if server else float("nan")
    client_before = time.process_time()
    started = time.perf_counter()
    drivers = [
        asyncio.create_task(drive_room(run, ps[:4], stats, stop, random.Random(rng.random())))
        for run, ps in zip(runs, per_room)
    ]
    await asyncio.sleep(args.duration)
    stop.set()
    elapsed = time.perf_counter() - started
    server_cpu = (cpu_seconds(server.proc.pid) - cpu_before) / elapsed if server else float("nan")
    client_cpu = (time.process_time() - client_before) / elapsed
    await asyncio.gather(*drivers, return_exceptions=True)
    mem_after = rss_mb(server.proc.pid) if server else float("nan")
    for p in all_players:
        await p.ws.close()
    for t in listeners:
        t.cancel()
    if server:
        server.stop()
    lat = sorted(stats.latencies)

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    result = {
        "rooms": args.rooms,
        "players": args.rooms * 4,
        "spectators": args.rooms * args.spectators,
        "seconds": round(elapsed, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 1),
        "latency_ms_p99": round(pct(0.99), 1),
        "latency_ms_p999": round(pct(0.999), 1),
        "latency_ms_max": round(pct(1.0), 1),
        "latency_samples": len(lat),
        "compression": not args.no_compression,
        "patch_bytes_median": median(stats.patch_bytes),
        "snapshot_bytes_median": median(stats.snapshot_now_bytes),
        "snapshot_bytes_at_connect_median": median(stats.snapshot_bytes),
        "patch_wire_median": median(stats.patch_wire),
        "snapshot_wire_median": median(stats.snapshot_now_wire),
        "snapshot_wire_at_connect_median": median(stats.snapshot_wire),
        "server_rss_mb_before": round(mem_before, 1),
        "server_rss_mb_after": round(mem_after, 1),
        "errors": stats.errors,
        "server_cpu_share": round(server_cpu, 2),
        "client_cpu_share": round(client_cpu, 2),
    }
    if result["patch_bytes_median"] and result["snapshot_bytes_median"]:
        result["patch_to_snapshot_json"] = round(
            result["patch_bytes_median"] / result["snapshot_bytes_median"], 3
        )
        result["patch_to_snapshot_wire"] = round(
            result["patch_wire_median"] / result["snapshot_wire_median"], 3
        )
    return result


def median(values: list[int]) -> float | None:
    return statistics.median(values) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=1, help="spectators per room")
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--url", help="a running server instead of starting one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-compression", action="store_true", help="start the server with WS_COMPRESSION=false"
    )
    parser.add_argument(
        "--gc-thresholds",
        help="GC_THRESHOLDS for the server it starts "
        "(\"\" = CPython's defaults; default: the server's own)",
    )
    args = parser.parse_args()
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
