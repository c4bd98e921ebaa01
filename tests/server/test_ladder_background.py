"""The server plays ladder packs by itself when LADDER_PACKS_PER_HOUR asks it to: in
its background workers (the pack pickled across), one pack per schedule slot however
many processes share the database, each stored once and whole."""

from __future__ import annotations

from pathlib import Path

from tests import fetch
from tests.conftest import fresh_database
from tests.waiting import wait_until

from .harness import ServerProcess, sql

ENV = {
    "LADDER_PACKS_PER_HOUR": "3600",  # a slot a second
    "LADDER_STRONG_WORLDS": "4",
    "LADDER_ENTRANTS": "greedy,strong",
}


def test_two_processes_play_one_pack_per_slot_in_the_background(tmp_path: Path) -> None:
    with fresh_database("postgres", tmp_path) as url:
        servers = [
            ServerProcess(url, env=ENV, log_path=tmp_path / f"server{i}.log").start()
            for i in range(2)
        ]
        try:

            def packs() -> int:
                found = fetch.get(servers[0].url + "/api/ladder", timeout=10).json()
                return int(found["packs"]) if found["packs"] >= 3 else 0

            wait_until(packs, timeout=120, message="three background packs")
            rows = sql(url, "SELECT slot, finished_ms FROM ladder_packs")
            slots = [r[0] for r in rows]
            assert None not in slots and len(set(slots)) == len(slots), slots
            counts = sql(
                url,
                "SELECT p.id, COUNT(r.seat) FROM ladder_packs p LEFT JOIN ladder_results r"
                " ON r.pack_id = p.id WHERE p.finished_ms IS NOT NULL GROUP BY p.id",
            )
            assert counts and all(n == 4 for _, n in counts), counts
            standings = fetch.get(servers[1].url + "/api/ladder", timeout=10).json()
            assert {s["entrant"] for s in standings["standings"]} == {"greedy", "strong"}
        finally:
            for s in servers:
                s.stop()
