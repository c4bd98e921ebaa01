"""Strong-bot benchmark (not a test): N rooms of one scripted person and three strong
bots against one server process; how long each table waits for its bot.

    .venv/bin/python bench/bots.py --rooms 50 --duration 60 [--workers 2] [--budget 0.5]

The person plays a random legal move as soon as it is their turn (bot delay 0,
no pause between deals), so a table is almost always waiting for one of its bots.
A bot move's latency is measured at the person's client: from the patch that made that bot's seat
the one to move, to the patch of its move (which includes the wire and the
server's commit, so it is what the table feels).  Reports p50 / p95 / max,
moves, and how the pool answered them (full budget, shortened budget, or the
greedy bot because the queue was full or the move was due), read from the server's
/metrics, and the share of strong moves the pool answered within 0.5 / 0.75 / 1 s of
being asked (the server's own histogram, without the wire and the commit).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.harness import Client, ServerProcess, create_room, metric  # noqa: E402


async def table(
    server: ServerProcess, latencies: list[float], until: float, rng: random.Random, level: str
) -> int:
    room = create_room(server.url, 4, bots=3, bot_level=level, bot_delay=0, deal_pause=0)
    me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    await me.wait_for(lambda m: m["type"] == "snapshot")
    turn_started = time.monotonic()
    moves = 0
    while time.monotonic() < until and me.view["status"] != "finished":
        if me.view["to_move"] == 0 and me.view["legal"]:
            move = rng.choice(me.view["legal"])
            await me.play(move["card"], move["take"])
            continue
        before = me.view["to_move"]
        msg = await me.recv(30)
        if msg["type"] != "patch":
            continue
        now = time.monotonic()
        last = me.view.get("last_move")
        if before not in (None, 0) and last and last["seat"] == before:
            latencies.append(now - turn_started)
            moves += 1
        turn_started = now
    await me.close()
    return moves


async def run(args: argparse.Namespace) -> None:
    tmp = tempfile.mkdtemp(prefix="kk-bots-")
    env = {"LOG_LEVEL": "warning", "BOT_BUDGET": str(args.budget), "RATE_PER_SECOND": "50"}
    if args.workers:
        env["BOT_WORKERS"] = str(args.workers)
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/bots.db", env=env).start()
    try:
        latencies: list[float] = []
        until = time.monotonic() + args.duration
        rng = random.Random(1)
        started = time.monotonic()
        counts = await asyncio.gather(
            *(
                table(server, latencies, until, random.Random(rng.random()), args.level)
                for _ in range(args.rooms)
            )
        )
        elapsed = time.monotonic() - started
        shortened = metric(server, "krypkasino_bot_shortened_total")
        overflow = metric(server, "krypkasino_bot_overflow_total")
        workers = metric(server, "krypkasino_bot_workers")
        strong = metric(server, "krypkasino_bot_move_seconds_count")
        pool = {
            le: metric(server, "krypkasino_bot_move_seconds_bucket", le=le) / max(strong, 1)
            for le in ("0.5", "0.75", "1.0")
        }
    finally:
        server.stop()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]  # noqa: E731
    print(
        json.dumps(
            {
                "rooms": args.rooms,
                "level": args.level,
                "duration_s": round(elapsed, 1),
                "budget_s": args.budget,
                "workers": int(workers),
                "cores": os.cpu_count(),
                "bot_moves": sum(counts),
                "bot_moves_per_s": round(sum(counts) / elapsed, 1),
                "latency_ms": {
                    "p50": round(1000 * statistics.median(latencies)),
                    "p95": round(1000 * p(0.95)),
                    "max": round(1000 * latencies[-1]),
                },
                "pool_share_within_s": {le: round(share, 3) for le, share in pool.items()},
                "strong_asked": int(strong),
                "shortened": int(shortened),
                "greedy_instead": int(overflow),
                "full_budget": int(strong - shortened - overflow),
            },
            indent=1,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument(
        "--level", default="strong", help="the bots' level (greedy: the server's own floor)"
    )
    parser.add_argument("--workers", type=int, default=0, help="BOT_WORKERS (0: the default)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
