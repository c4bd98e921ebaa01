"""A move's SQLite write on its own (not a test): CPU and instructions per move.

    .venv/bin/python bench/db_moves.py                      # this checkout
    .venv/bin/python bench/db_moves.py --root ../before     # another one
    .venv/bin/python bench/db_moves.py --instructions       # under callgrind

The server's write path without the server: ``RoomRepository.commit_events`` of
one play at a time, each in its own tick of the loop (as at 500 rooms, where a
tick rarely holds two), spread at random over ``--rooms`` rooms so that the
pages a move touches are those of a busy server, with the writer thread's
checkpoints running as they do there.  ``--instructions`` counts what the
whole process executes while the moves run (valgrind's callgrind, switched on
only for them), which does not move with whatever else the machine is doing;
the CPU figure (median of five rounds) does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose code to run")
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--moves", type=int, default=15000, help="measured moves in all")
    parser.add_argument("--instructions", action="store_true", help="count them under callgrind")
    parser.add_argument("--counting", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


async def _run(args: argparse.Namespace, url: str) -> list[float]:
    from app.db.repository import RoomRepository
    from app.db.session import make_engine, make_sessionmaker, make_writer
    from app.engine.rules import RuleSet
    from app.rooms.domain.events import Played, RoomEvent
    from app.rooms.domain.state import RoomOptions, RoomState
    from app.rooms.store import Written

    engine, writer = make_engine(url), make_writer(url)
    repo = RoomRepository(make_sessionmaker(engine), writer)
    rooms: list[list[Any]] = []
    for i in range(args.rooms):
        st = RoomState(f"{i:032x}", f"B{i:05d}", 4, RuleSet.from_dict({}), RoomOptions())
        await repo.create_room(st)
        rooms.append([st.room_id, 0, st.status])
    rng = random.Random(1)
    cards = ["7H", "3S", "4D", "KC", "QH", "10S", "AD"]

    async def play(n: int) -> None:
        for _ in range(n):
            room = rooms[rng.randrange(len(rooms))]
            seq = room[1] + 1
            take = tuple(rng.sample(cards, rng.randrange(3)))
            play = Played(seq % 4, rng.choice(cards), take, f"{seq % 4}:{seq}")
            event = RoomEvent(seq, play, int(time.time() * 1000))
            await repo.commit_events(room[0], room[1], room[2], [Written(event)], room[2])
            room[1] = seq

    await play(2000)  # the pages of every room are in use, the WAL has grown
    per_move: list[float] = []
    if args.counting:
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True)
        await play(args.moves)
        subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], capture_output=True)
    else:
        for _ in range(5):
            started = time.process_time()
            await play(args.moves // 5)
            per_move.append((time.process_time() - started) / (args.moves // 5) * 1e6)
    if writer is not None:
        writer.close()
    await engine.dispose()
    return per_move


def _instructions(args: argparse.Namespace) -> None:
    out = Path(tempfile.mkdtemp(prefix="kk-dbmoves-")) / "callgrind.out"
    cmd = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
        sys.executable, __file__, "--counting", "--root", args.root,
        "--rooms", str(args.rooms), "--moves", str(args.moves),
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    total = 0
    for dump in out.parent.glob("callgrind.out*"):
        for line in dump.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                total += int(line.split()[1])
    print(f"{args.root}: {total // args.moves:,} instructions a move ({args.moves} moves)")


def main() -> None:
    args = _args()
    if args.instructions:
        _instructions(args)
        return
    sys.path.insert(0, args.root)
    import uvloop

    from app.db.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tempfile.mkdtemp(prefix='kk-dbmoves-')}/moves.db"
    upgrade(url)  # before the loop starts: migrations run a loop of their own
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())  # as the server runs
    per_move = asyncio.run(_run(args, url))
    if per_move:
        rounds = " ".join(f"{x:.1f}" for x in per_move)
        print(f"{args.root}: {statistics.median(per_move):.1f} us of CPU a move ({rounds})")


if __name__ == "__main__":
    main()
