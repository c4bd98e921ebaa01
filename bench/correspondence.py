"""Correspondence rooms nobody is at hold no memory (issue 32).

Creates ``--rooms`` correspondence rooms on a real database (SQLite by default, or
``--url``), each with two people seated and a move played by one of them over a
connection that then leaves, all through the room service as the server runs it
(its deadline poller too).  Nobody is connected afterwards, so each room should have
left memory: the script reports the process's resident size (VmRSS) and the Python
heap as tracemalloc counts it, before and after, and how many rooms the service still
holds.  The same is then done with live rooms, which stay in memory until
``ROOM_IDLE_SECONDS`` (600 s) have passed, for comparison.

    PYTHONPATH=. python bench/correspondence.py [--rooms 1000] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Sink:
    """A connection's outgoing side that drops what it is sent."""

    def send_text(self, text: str) -> None:
        pass

    def close(self, code: int) -> None:
        pass


async def play_rooms(service: Any, n: int, options: Any) -> None:
    from app.engine.rules import RuleSet
    from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard

    for i in range(n):
        made = await service.execute(NewRoom(2, "Ann", RuleSet(), 0, options))
        rid = made.room_id
        await service.execute(JoinRoom(rid, f"Bo{i}"))
        seat = (await service.runtime(rid)).state.to_move
        sink = Sink()
        await service.connect(rid, seat, sink, None)
        move = (await service.runtime(rid)).state.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="m1"))
        await service.disconnect(rid, seat, sink)


def measure() -> dict[str, float]:
    from app.gc_tuning import release_memory

    release_memory()
    return {
        "rss_mb": round(rss_kb() / 1024, 1),
        "traced_mb": tracemalloc.get_traced_memory()[0] / 2**20,
    }


async def run(url: str, rooms: int) -> dict[str, Any]:
    from app.broker import MemoryBroker
    from app.db.migrate import upgrade
    from app.db.repository import RoomRepository
    from app.db.session import make_engine, make_sessionmaker, make_writer
    from app.rooms.domain.state import RoomOptions
    from app.rooms.service import RoomService
    from app.rooms.settings import ServiceSettings

    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    service = RoomService(repo, MemoryBroker(), ServiceSettings(default_bot_delay=0))
    await service.start()
    corr = RoomOptions(pace="correspondence", days_per_move=7, deal_pause=0)
    out: dict[str, Any] = {"rooms": rooms, "database": url.split(":")[0]}
    try:
        await play_rooms(service, 50, corr)  # warm up: code paths, caches, pools
        tracemalloc.start(8)
        before = measure()
        started = time.perf_counter()
        await play_rooms(service, rooms, corr)
        took = time.perf_counter() - started
        after = measure()
        top = tracemalloc.take_snapshot().statistics("filename")[:5]
        out["correspondence"] = {
            "before": before,
            "after": after,
            "held": len(service.rooms),
            "seconds": round(took, 1),
            "traced_top": [
                f"{s.traceback[0].filename.split('site-packages/')[-1]}: {s.size / 1024:.0f} KB"
                for s in top
            ],
        }
        await play_rooms(service, rooms, RoomOptions(deal_pause=0))
        live = measure()
        out["live"] = {"after": live, "held": len(service.rooms)}
    finally:
        tracemalloc.stop()
        await service.stop()
        if repo.writer is not None:
            repo.writer.close()
        await engine.dispose()
    for part in ("correspondence", "live"):
        for key in ("before", "after"):
            m = out[part].get(key)
            if m is not None:
                m["traced_mb"] = round(m["traced_mb"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--url", default=None, help="database URL (default: a new SQLite file)")
    args = parser.parse_args()
    url = args.url or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench.db"
    gc.collect()
    print(json.dumps(asyncio.run(run(url, args.rooms)), indent=2))


if __name__ == "__main__":
    main()
