"""Load benchmark (not a test): N rooms x 4 scripted WebSocket players plus spectators
against one server process, one move per second per room.

    .venv/bin/python bench/load.py --rooms 500 --duration 60 --clients 2 \\
        --server-cpus 0 --client-cpus 1

Starts ``krypkasino serve`` on a fresh SQLite file (or use --url for a running
server; --server-root runs the server from another checkout, so that two
versions can be measured in one session), creates the rooms over HTTP, and
hands them out to ``--clients`` load-generator processes.  Each process
connects its rooms' players and spectators, and the seat to move in each room
plays a random legal move once a second.

Reports moves/s, the latency from sending ``play`` to receiving its patch at
every receiver (p50/p99/p99.9), the server's CPU time per committed move,
bytes per patch vs per snapshot (as JSON and as compressed on the wire), and
the server's resident memory.  ``--server-cpus``/``--client-cpus`` pin the
server and the generators to cores (``taskset``), so that the report can say
which side had which share of the machine.

Soak mode (``--soak``): the same load, with the server's RSS sampled every
``--sample`` seconds; afterwards every client disconnects and the report adds
the RSS once the server has evicted the idle rooms (the server is started
with ``ROOM_IDLE_SECONDS=--idle``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Opcode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import gc_tuning  # noqa: E402
from tests.server.harness import TEST_LIMITS, free_port  # noqa: E402

CONNECT_ATTEMPTS = 5
PATCH_START = '{"type":"patch","seq":'
ERROR_START = '{"type":"error"'


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
    timeline: list[tuple[float, float]] = field(default_factory=list)
    """(when the play was sent, its latency at one receiver): where the slow ones fall."""
    patch_bytes: list[int] = field(default_factory=list)
    patch_wire: list[int] = field(default_factory=list)
    snapshot_bytes: list[int] = field(default_factory=list)
    snapshot_wire: list[int] = field(default_factory=list)
    snapshot_now_bytes: list[int] = field(default_factory=list)
    snapshot_now_wire: list[int] = field(default_factory=list)
    moves: int = 0
    committed: int = 0
    errors: int = 0
    measuring: bool = False


def apply_ops(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """Apply the server's RFC 6902 operations (add, remove, replace: all that
    app/realtime/jsondiff.py makes) in place.  The jsonpatch library validates and
    wraps every operation in objects of its own; with 2,000 seats applying every
    patch it was the generators' largest cost, and generator CPU taken from the
    server's 2 cores shows up as server latency.  tests/test_bench_load.py checks
    this against jsonpatch."""
    for op in ops:
        path = op["path"]
        if not path:
            doc = op["value"]
            continue
        keys = [k.replace("~1", "/").replace("~0", "~") for k in path[1:].split("/")]
        target = doc
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last, kind = keys[-1], op["op"]
        if isinstance(target, list):
            index = len(target) if last == "-" else int(last)
            if kind == "add":
                target.insert(index, op["value"])
            elif kind == "remove":
                del target[index]
            elif kind == "replace":
                target[index] = op["value"]
            else:
                raise ValueError(f"unexpected operation {kind!r}")
        elif kind in ("add", "replace"):
            target[last] = op["value"]
        elif kind == "remove":
            del target[last]
        else:
            raise ValueError(f"unexpected operation {kind!r}")
    return doc


class Player:
    """One connection.  Seats keep the view (they need its legal moves);
    spectators only read each message's type and seq, which is all the
    latency measurement needs, so that the generator stays cheap."""

    def __init__(self, url: str, run: RoomRun, token: str | None, stats: Stats) -> None:
        self.url, self.run, self.token, self.stats = url, run, token, stats
        self.keeps_view = token is not None
        self.view: dict | None = None
        self.seq = -1
        self.ws: Any = None

    async def start(self) -> None:
        """Connect and say hello; a refused or timed-out connect is retried (with
        thousands of sockets opening at once, the listen backlog can overflow)."""
        for attempt in range(CONNECT_ATTEMPTS):
            try:
                self.ws = await websockets.connect(
                    self.url,
                    max_size=2**22,
                    open_timeout=60,
                    close_timeout=2,
                    ping_interval=None,
                )
                break
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                if attempt == CONNECT_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.5 * 2**attempt)
        self.wire: deque[int] = deque()
        self.deflate = next(
            (e for e in self.ws.protocol.extensions if isinstance(e, PerMessageDeflate)), None
        )
        if self.deflate is not None and self.keeps_view:
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
        try:
            async for raw in self.ws:
                if self.keeps_view:
                    msg = json.loads(raw)
                    self._keep_view(msg, raw)
                    kind, seq = msg["type"], msg.get("seq")
                else:  # a spectator reads only the type and seq the server encodes first
                    kind, seq = spectator_header(raw)
                if kind == "patch":
                    r = self.run
                    if r.sent_at is not None and seq == r.sent_seq + 1 and self.stats.measuring:
                        now = time.perf_counter()
                        self.stats.latencies.append(now - r.sent_at)
                        self.stats.timeline.append((r.sent_at, now - r.sent_at))
                        if self.token == r.tokens[0]:
                            self.stats.committed += 1
                elif kind == "error":
                    self.stats.errors += 1
                if stop.is_set():
                    return
        except websockets.ConnectionClosed:
            return

    def _keep_view(self, msg: dict, raw: str) -> None:
        wire = self.wire_size(raw)
        if msg["type"] == "snapshot":
            self.stats.snapshot_bytes.append(len(raw))
            self.stats.snapshot_wire.append(wire)
            self.view, self.seq = msg["view"], msg["seq"]
        elif msg["type"] == "patch":
            self.stats.patch_bytes.append(len(raw))
            self.stats.patch_wire.append(wire)
            self.view = apply_ops(self.view, msg["ops"])
            self.seq = msg["seq"]
            if self.seq % 7 == 0 and self.token == self.run.tokens[0]:
                snap = json.dumps(
                    {"type": "snapshot", "seq": self.seq, "view": self.view},
                    separators=(",", ":"),
                ).encode()
                self.stats.snapshot_now_bytes.append(len(snap))
                self.stats.snapshot_now_wire.append(self.snapshot_on_new_connection(snap))


def spectator_header(raw: str | bytes) -> tuple[str, int | None]:
    """A message's type and seq without parsing it: the server encodes ``type``
    first and a patch's ``seq`` second (app/wire/messages.py)."""
    text = raw if isinstance(raw, str) else raw.decode()
    if text.startswith(PATCH_START):
        end = text.index(",", len(PATCH_START))
        return "patch", int(text[len(PATCH_START) : end])
    if text.startswith(ERROR_START):
        return "error", None
    return "other", None


HEAD_START_SECONDS = 60.0
"""The spread before the warm-up stops after this long, wherever the rooms are."""
HEAD_START_GAP = 0.05
"""At most 20 moves a second per room while spreading: 500 rooms at full speed
overran the generators (4 of 2,500 sockets were lost and a refused move left
its room waiting for a patch that never came)."""
HEAD_START_IN_FLIGHT = 40
"""Moves of one generator's rooms awaiting their patches at once while spreading.
Without a cap 500 rooms asked for up to 10,000 moves a second; on a slower
machine the generators fell more than 20 s behind their sockets and the
server closed them for unanswered keepalive pings."""


async def head_start(
    run: RoomRun,
    players: list[Player],
    moves: int,
    until: float,
    in_flight: asyncio.Semaphore,
) -> None:
    """Play up to ``moves`` moves quickly, before ``until`` (not measured).

    Rooms created together deal together: a 4-player deal is about 100 moves,
    so at one move a second every room's deal ended within the same few
    seconds, every 100 seconds, and those waves of deal ends (scoring, a new
    shuffled pack stored, a snapshot to everyone) were the run's worst
    seconds.  Rooms on a real server are at every point of their deals;
    each room here starts a random number of moves in.  A move whose patch
    does not come within a second (refused, say) is tried again."""
    played = 0
    while played < moves and time.monotonic() < until:
        view = players[0].view
        mover = None if view is None or view["to_move"] is None else players[view["to_move"]]
        if (
            view is None
            or view["status"] != "playing"
            or mover is None
            or mover.view is None
            or mover.seq != players[0].seq
            or not mover.view["legal"]
        ):
            await asyncio.sleep(HEAD_START_GAP)
            continue
        seq = players[0].seq
        move = mover.view["legal"][0]
        async with in_flight:
            await mover.ws.send(
                json.dumps(
                    {
                        "type": "play",
                        "id": f"{run.room_id}-h{seq}",
                        "card": move["card"],
                        "take": move["take"],
                    }
                )
            )
            answered = time.monotonic() + 1.0
            while players[0].seq == seq and time.monotonic() < answered:
                await asyncio.sleep(0.01)
        if players[0].seq != seq:
            played += 1
        await asyncio.sleep(HEAD_START_GAP)


async def drive_room(
    run: RoomRun, players: list[Player], stats: Stats, stop: asyncio.Event, rng: random.Random
) -> None:
    # Each room keeps its own phase within the second: its ticks are due at fixed
    # times (start + k seconds), never "one second after the last tick ended".  The
    # relative form let every late wake-up (the generator busy with a burst of
    # patches) shift a room's phase to the end of that burst, so over minutes the
    # rooms drifted into step and the server got its moves in ever larger waves.
    tick = time.perf_counter() + rng.random()
    await asyncio.sleep(tick - time.perf_counter())
    while not stop.is_set():
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
                if stats.measuring:
                    stats.moves += 1
        tick = next_tick(tick, time.perf_counter())
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))


def next_tick(tick: float, now: float) -> float:
    """The room's next due time after ``tick``: one second later, or, when the
    generator fell more than a second behind, the first due time still ahead
    (skipped ticks are not made up in a burst)."""
    tick += 1.0
    if tick < now:
        tick += float(int(now - tick) + 1)
    return tick


# ------------------------------------------------------------ generator process


def generator(
    index: int,
    rooms: list[tuple[str, list[str]]],
    ws_base: str,
    spectators: int,
    cpus: list[int] | None,
    seed: int,
    ready: Any,
    go: Any,
    go_on: Any,
    deal_spread: int,
    warmup: float,
    duration: float,
    results: Any,
) -> None:
    """One load-generator process: connect, wait for ``go``, spread the rooms over
    their deals, wait for ``go_on``, drive, report (``ready`` is released after
    connecting and again after the spread)."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass

    def signal_ready() -> None:
        ready.release()

    try:
        out = asyncio.run(
            _generate(
                rooms,
                ws_base,
                spectators,
                random.Random(seed + index),
                signal_ready,
                go,
                go_on,
                deal_spread,
                warmup,
                duration,
            )
        )
    except BaseException:  # reported, so that the parent does not wait forever
        results.put({"failed": traceback.format_exc()})  # first: the parent reads it
        ready.release()  # when it stops waiting, in whichever handshake it is
        return
    results.put(out)


async def _generate(
    rooms: list[tuple[str, list[str]]],
    ws_base: str,
    spectators: int,
    rng: random.Random,
    ready: Callable[[], None],
    go: Any,
    go_on: Any,
    deal_spread: int,
    warmup: float,
    duration: float,
) -> dict:
    stats = Stats()
    stop = asyncio.Event()
    per_room: list[tuple[RoomRun, list[Player]]] = []
    everyone: list[Player] = []
    for room_id, tokens in rooms:
        run = RoomRun(room_id, tokens)
        url = f"{ws_base}/ws/rooms/{room_id}"
        ps = [Player(url, run, t, stats) for t in tokens]
        ps += [Player(url, run, None, stats) for _ in range(spectators)]
        per_room.append((run, ps))
        everyone.extend(ps)
    failures: list[BaseException] = []
    for i in range(0, len(everyone), 50):
        batch = everyone[i : i + 50]
        outcomes = await asyncio.gather(*(p.start() for p in batch), return_exceptions=True)
        failures += [o for o in outcomes if isinstance(o, BaseException)]
    if any(p.ws is None for _, ps in per_room for p in ps[:4]):
        raise RuntimeError(f"a seated player could not connect: {failures[0]!r}")
    everyone = [p for p in everyone if p.ws is not None]  # spectators that failed are counted
    listeners = [asyncio.create_task(p.listen(stop)) for p in everyone]
    # The generator holds many connections: tuned like the server, so that its
    # own collector pauses do not count as server latency.
    gc_tuning.tune(gc_tuning.parse_thresholds(gc_tuning.DEFAULT_THRESHOLDS))
    await asyncio.sleep(1)
    ready()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, go.wait)
    until = time.monotonic() + HEAD_START_SECONDS
    in_flight = asyncio.Semaphore(HEAD_START_IN_FLIGHT)
    await asyncio.gather(
        *(
            head_start(run, ps[:4], rng.randrange(deal_spread + 1), until, in_flight)
            for run, ps in per_room
        )
    )
    ready()  # spread over their deals: the measured span starts together everywhere
    await loop.run_in_executor(None, go_on.wait)
    drivers = [
        asyncio.create_task(drive_room(run, ps[:4], stats, stop, random.Random(rng.random())))
        for run, ps in per_room
    ]
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu_before = time.process_time()
    await asyncio.sleep(duration)
    stats.measuring = False
    stop.set()
    cpu = time.process_time() - cpu_before
    await asyncio.gather(*drivers, return_exceptions=True)
    for t in listeners:
        t.cancel()
    # All at once: one by one, a socket whose unread messages fill its queue
    # waits out its close timeout, and thousands of them take hours.
    await asyncio.gather(*(p.ws.close() for p in everyone), return_exceptions=True)
    return {
        "latencies": stats.latencies,
        "timeline": [(at - time.perf_counter() + time.time(), lat) for at, lat in stats.timeline],
        "moves": stats.moves,
        "committed": stats.committed,
        "errors": stats.errors,
        "connected": len(everyone),
        "connect_failures": len(failures),
        "connect_failure_sample": repr(failures[0]) if failures else None,
        "cpu": cpu,
        "patch_bytes": stats.patch_bytes,
        "patch_wire": stats.patch_wire,
        "snapshot_bytes": stats.snapshot_bytes,
        "snapshot_wire": stats.snapshot_wire,
        "snapshot_now_bytes": stats.snapshot_now_bytes,
        "snapshot_now_wire": stats.snapshot_now_wire,
    }


# ----------------------------------------------------------------- the server


def cpu_times(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads) so far."""
    return sum(cpu_times(pid))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def rooms_in_memory(base: str) -> float | None:
    """The server's krypkasino_rooms gauge, summed over statuses (None if unreadable)."""
    try:
        text = httpx.get(base + "/metrics", timeout=10).text
    except httpx.HTTPError:
        return None
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("krypkasino_rooms{")
    )


def server_env(root: Path, database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a benchmarked server: the tests' limits off, quiet logs,
    bots and deals without pauses, the code of ``root``."""
    env = dict(os.environ)
    env.update(
        {
            **TEST_LIMITS,
            "DATABASE_URL": database_url,
            "RATE_PER_SECOND": "50",
            "LOG_LEVEL": "warning",
            "DEFAULT_BOT_DELAY": "0",
            "DEFAULT_DEAL_PAUSE": "0",
            "DEFAULT_GRACE": "60",
            "PYTHONPATH": str(root),
            **extra,
        }
    )
    return env


def serve_command(port: int) -> list[str]:
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    """``krypkasino serve`` on a fresh SQLite file, from --server-root's checkout."""
    root = Path(args.server_root).resolve() if args.server_root else ROOT
    tmp = tempfile.mkdtemp(prefix="kk-load-")
    port = free_port()
    env = server_env(
        root,
        f"sqlite+aiosqlite:///{tmp}/load.db",
        ROOM_IDLE_SECONDS=str(args.idle),
        WS_COMPRESSION="false" if args.no_compression else "true",
    )
    if args.gc_thresholds is not None:
        env["GC_THRESHOLDS"] = args.gc_thresholds
    cmd = serve_command(port)
    if args.server_cpus:
        cmd = ["taskset", "-c", args.server_cpus, *cmd]
    log = open(Path(tmp) / "server.log", "wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}; see {tmp}/server.log")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("server did not start")


async def create_rooms(base: str, count: int) -> list[tuple[str, list[str]]]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:

        async def one() -> tuple[str, list[str]]:
            r = (
                await http.post(
                    "/api/rooms", json={"players": 4, "name": "P0", "rules": {"match_deals": 100}}
                )
            ).json()
            tokens = [r["token"]]
            for n in range(1, 4):
                seat = await http.post(f"/api/rooms/{r['room_id']}/seats", json={"name": f"P{n}"})
                tokens.append(seat.json()["token"])
            return r["room_id"], tokens

        rooms: list[tuple[str, list[str]]] = []
        for i in range(0, count, 20):
            rooms += await asyncio.gather(*(one() for _ in range(min(20, count - i))))
        return rooms


def parse_cpus(text: str | None) -> list[int] | None:
    if not text:
        return None
    cpus: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus += range(int(lo), int(hi or lo) + 1)
    return cpus


def wait_for_generators(
    ready: Any, workers: list[Any], results: Any, proc: subprocess.Popen[bytes] | None
) -> None:
    """Wait until every generator has released ``ready``; stop everything and say
    why when one of them failed instead."""
    waiting = len(workers)
    while waiting:
        if ready.acquire(timeout=5):
            waiting -= 1
        elif any(w.exitcode is not None for w in workers):
            break  # a generator ended before it got there: its report says why
    failed = [o["failed"] for o in drain(results) if "failed" in o]
    if failed or waiting:
        for w in workers:
            w.terminate()
        if proc:
            proc.terminate()
        raise RuntimeError("a load generator failed:\n" + ("\n".join(failed) or "no report"))


def run(args: argparse.Namespace) -> dict:
    proc = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        proc, base = start_server(args)
    pid = proc.pid if proc else None
    rooms = asyncio.run(create_rooms(base, args.rooms))
    ctx = mp.get_context("spawn")
    ready, go, go_on, results = ctx.Semaphore(0), ctx.Event(), ctx.Event(), ctx.Queue()
    chunks = [rooms[i :: args.clients] for i in range(args.clients)]
    workers = [
        ctx.Process(
            target=generator,
            args=(
                i,
                chunk,
                base.replace("http", "ws", 1),
                args.spectators,
                parse_cpus(args.client_cpus),
                args.seed,
                ready,
                go,
                go_on,
                args.deal_spread,
                args.warmup,
                args.duration,
                results,
            ),
        )
        for i, chunk in enumerate(chunks)
    ]
    rss_at_start = rss_mb(pid) if pid else float("nan")
    for w in workers:
        w.start()
    wait_for_generators(ready, workers, results, proc)  # connected
    time.sleep(1)
    rss_samples: list[tuple[float, float]] = []
    go.set()
    wait_for_generators(ready, workers, results, proc)  # spread over their deals
    go_on.set()
    time.sleep(args.warmup)  # the rooms play; nothing is measured yet
    mem_before = rss_mb(pid) if pid else float("nan")
    cpu_before = cpu_seconds(pid) if pid else float("nan")
    sys_before = cpu_times(pid)[1] if pid else float("nan")
    started = time.perf_counter()
    if args.on_start:
        subprocess.run(args.on_start, shell=True, check=False)
    if args.soak and pid:
        while time.perf_counter() - started < args.duration:
            rss_samples.append((round(time.perf_counter() - started), rss_mb(pid)))
            time.sleep(min(args.sample, max(0.0, args.duration - (time.perf_counter() - started))))
    time.sleep(max(0.0, args.duration - (time.perf_counter() - started)))
    # The measured span ends here, before the generators close their sockets.
    elapsed = time.perf_counter() - started
    if args.on_stop:
        subprocess.run(args.on_stop, shell=True, check=False)
    server_cpu = (cpu_seconds(pid) - cpu_before) if pid else float("nan")
    server_sys = (cpu_times(pid)[1] - sys_before) if pid else float("nan")
    mem_after = rss_mb(pid) if pid else float("nan")
    outs = [results.get() for _ in workers]
    failed = [o["failed"] for o in outs if "failed" in o]
    if failed:
        raise RuntimeError("a load generator failed:\n" + "\n".join(failed))
    for w in workers:
        w.join()
    evicted = None
    rooms_left = None
    if args.soak and pid:
        time.sleep(args.idle + 90)  # the sweep runs every minute or so
        evicted = rss_mb(pid)
        rooms_left = rooms_in_memory(base)
    if proc:
        proc.terminate()
        proc.wait(30)

    def merged(key: str) -> list:
        return [x for o in outs for x in o[key]]

    lat = sorted(merged("latencies"))

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    moves = sum(o["moves"] for o in outs)
    connections = sum(o["connected"] for o in outs)
    committed = sum(o["committed"] for o in outs)
    result: dict[str, Any] = {
        "rooms": args.rooms,
        "players": args.rooms * 4,
        "spectators": args.rooms * args.spectators,
        "clients": args.clients,
        "deal_spread": args.deal_spread,
        "server_cpus": args.server_cpus or "any",
        "client_cpus": args.client_cpus or "any",
        "server_root": str(Path(args.server_root).resolve()) if args.server_root else str(ROOT),
        "seconds": round(elapsed, 1),
        "moves": moves,
        "committed": committed,
        "moves_per_s": round(moves / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 1),
        "latency_ms_p99": round(pct(0.99), 1),
        "latency_ms_p999": round(pct(0.999), 1),
        "latency_ms_max": round(pct(1.0), 1),
        "latency_samples": len(lat),
        "server_cpu_share": round(server_cpu / elapsed, 3),
        "server_cpu_ms_per_move": round(1000 * server_cpu / committed, 3) if committed else None,
        "server_sys_share_of_cpu": round(server_sys / server_cpu, 2) if server_cpu else None,
        "client_cpu_share": round(sum(o["cpu"] for o in outs) / elapsed, 3),
        "compression": not args.no_compression,
        "patch_bytes_median": median(merged("patch_bytes")),
        "patch_wire_median": median(merged("patch_wire")),
        "snapshot_bytes_median": median(merged("snapshot_now_bytes")),
        "snapshot_wire_median": median(merged("snapshot_now_wire")),
        "snapshot_bytes_at_connect_median": median(merged("snapshot_bytes")),
        "snapshot_wire_at_connect_median": median(merged("snapshot_wire")),
        "connections": connections,
        "connect_failures": sum(o["connect_failures"] for o in outs),
        "connect_failure_sample": next(
            (o["connect_failure_sample"] for o in outs if o["connect_failure_sample"]), None
        ),
        "server_rss_mb_at_start": round(rss_at_start, 1),
        "server_rss_kb_per_connection": (
            round(1024 * (mem_before - rss_at_start) / max(1, connections)) if pid else None
        ),
        "server_rss_mb_before": round(mem_before, 1),
        "server_rss_mb_after": round(mem_after, 1),
        "errors": sum(o["errors"] for o in outs),
    }
    worst: dict[int, float] = {}
    for at, lat in merged("timeline"):
        window = int(at // 5) * 5
        worst[window] = max(worst.get(window, 0.0), lat)
    if worst:
        first = min(worst)
        result["worst_ms_per_5s"] = [round(worst[w] * 1000) for w in sorted(worst)]
        result["worst_ms_per_5s_from"] = first
    if args.soak:
        result["rss_mb_samples"] = [(t, round(m, 1)) for t, m in rss_samples]
        result["rss_mb_after_eviction"] = round(evicted, 1) if evicted is not None else None
        result["rooms_in_memory_after_eviction"] = rooms_left
    return result


def drain(queue: Any) -> list[dict]:
    """What is in a multiprocessing queue now, without waiting for more."""
    items = []
    while True:
        try:
            items.append(queue.get(timeout=0.5))
        except Exception:  # queue.Empty
            return items


def median(values: list[int]) -> float | None:
    return statistics.median(values) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=1, help="spectators per room")
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument(
        "--warmup",
        type=float,
        default=15,
        help="seconds of play before measuring (the first seconds of 500 rooms "
        "starting together are slower; see docs/benchmarks.md)",
    )
    parser.add_argument("--clients", type=int, default=2, help="load-generator processes")
    parser.add_argument("--server-cpus", help="taskset list for the server, e.g. 0")
    parser.add_argument("--client-cpus", help="cores for the generators, e.g. 1")
    parser.add_argument("--server-root", help="run the server from this checkout")
    parser.add_argument("--url", help="a running server instead of starting one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--on-start",
        help="shell command run as the measured span starts (e.g. callgrind_control -i on)",
    )
    parser.add_argument("--on-stop", help="shell command run as the measured span ends")
    parser.add_argument(
        "--deal-spread",
        type=int,
        default=100,
        help="before measuring, each room plays 0..N moves at full speed, so that the "
        "rooms are at different points of their deals (0: all deal together)",
    )
    parser.add_argument("--soak", action="store_true", help="sample RSS; measure eviction")
    parser.add_argument("--sample", type=float, default=30, help="soak: seconds between samples")
    parser.add_argument("--idle", type=float, default=600, help="server's ROOM_IDLE_SECONDS")
    parser.add_argument(
        "--no-compression", action="store_true", help="start the server with WS_COMPRESSION=false"
    )
    parser.add_argument(
        "--gc-thresholds",
        help="GC_THRESHOLDS for the server it starts "
        "(\"\" = CPython's defaults; default: the server's own)",
    )
    args = parser.parse_args()
    print(json.dumps(run(args), indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
