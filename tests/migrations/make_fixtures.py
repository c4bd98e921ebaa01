"""Make the upgrade fixtures: real databases written by earlier versions of the server.

Run once per schema version, by hand, from a clone with the project's history:

    .venv/bin/python -m tests.migrations.make_fixtures 0001=42565b1 0002=a1ed4a1 ...

For each ``REVISION=COMMIT`` it exports that commit's tree (``git archive``),
runs *that* server (``python -m app.cli serve`` in the exported tree, with this
environment's packages) once on a fresh SQLite file and once on a fresh
PostgreSQL database, and plays through its own HTTP and WebSocket API:

- room ``finished``: two players play a whole match to its end (every deal of
  the dealer rotation), chat where that version has chat, then a rematch and a
  few moves of match 2 where it has rematches;
- room ``playing``: three seats (two people and a bot) in the middle of deal
  1, a person to move;
- room ``waiting``: one seat of two taken.

Before stopping the server it records what the upgraded server must serve the
same: every finished deal's record, and for each room in play its seq and the
view of every seat and of a spectator on a fresh connection.  It writes into
``tests/fixtures/upgrade/<REVISION>/``: ``sqlite.db.gz`` (the server's own file,
checkpointed, gzipped), ``postgres.sql`` (``pg_dump --inserts``), and beside each a
manifest (``sqlite.json``, ``postgres.json``) with the commit, the tokens, the
records, the views and every table's row count.

The commits used are listed in tests/fixtures/upgrade/README.md.  The fixtures
are made once and committed: an old version's database is a fact about the
past, and regenerating it would need that version's code and history.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import jsonpatch
import websockets

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "upgrade"
POSTGRES_URL = os.environ.get("POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


class Seat:
    """One WebSocket connection that keeps its view by applying patches."""

    def __init__(self, ws_base: str, room_id: str, token: str | None) -> None:
        self.url = f"{ws_base}/ws/rooms/{room_id}"
        self.token = token
        self.ws: Any = None
        self.view: dict[str, Any] = {}
        self.seq = -1
        self.errors: list[dict[str, Any]] = []

    async def connect(self) -> Seat:
        self.ws = await websockets.connect(self.url, ping_interval=None, max_size=2**22)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "last_seq": None}))
        while self.seq < 0:
            await self.recv(10)
        return self

    async def recv(self, timeout: float) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if msg["type"] == "snapshot":
            self.view, self.seq = msg["view"], msg["seq"]
        elif msg["type"] == "patch":
            assert msg["seq"] == self.seq + 1, (self.seq, msg["seq"])
            self.view = jsonpatch.apply_patch(self.view, msg["ops"])
            self.seq = msg["seq"]
        elif msg["type"] == "error":
            self.errors.append(msg)
        return msg

    async def drain(self, quiet: float = 0.08) -> None:
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    async def close(self) -> None:
        await self.ws.close()


async def settle(seats: list[Seat]) -> None:
    """Until every connection holds the same latest seq and nothing more arrives."""
    while True:
        for s in seats:
            await s.drain()
        if len({s.seq for s in seats}) == 1:
            return


async def play_one(seats: dict[int, Seat], rng: random.Random) -> bool:
    """One random legal move by the person to move; False when no person is to move."""
    any_seat = next(iter(seats.values()))
    await settle(list(seats.values()))
    view = any_seat.view
    mover = view.get("to_move")
    if view.get("status") != "playing" or mover not in seats:
        return False
    legal = seats[mover].view["legal"]
    move = rng.choice(legal)
    await seats[mover].ws.send(
        json.dumps(
            {"type": "play", "id": uuid.uuid4().hex, "card": move["card"], "take": move["take"]}
        )
    )
    before = seats[mover].seq
    deadline = time.monotonic() + 10
    while seats[mover].seq == before:
        assert time.monotonic() < deadline, "the old server did not take the move"
        await seats[mover].recv(10)
    await asyncio.sleep(0.07)  # under the per-connection rate limit
    return True


async def chat(seat: Seat, text: str) -> None:
    """Say something in the room; a version without chat answers bad_message (ignored)."""
    await seat.ws.send(json.dumps({"type": "chat", "text": text}))
    await seat.drain(0.3)


async def fresh_views(ws_base: str, room_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The seq and, per seat and for a spectator, the view of a brand-new connection."""
    views: dict[str, Any] = {}
    seqs = set()
    for key, token in [*((str(s), t) for s, t in tokens.items()), ("spectator", None)]:
        probe = await Seat(ws_base, room_id, token).connect()
        await probe.drain(0.3)
        views[key] = probe.view
        seqs.add(probe.seq)
        await probe.close()
    assert len(seqs) == 1, seqs
    return {"seq": seqs.pop(), "views": views}


async def play_rooms(base: str, rng: random.Random) -> list[dict[str, Any]]:
    ws_base = base.replace("http://", "ws://")
    rooms: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=base, timeout=20) as http:

        async def create(players: int, bots: int) -> dict[str, Any]:
            r = await http.post(
                "/api/rooms", json={"players": players, "name": "Ann", "bots": bots, "rules": {}}
            )
            assert r.status_code == 201, r.text
            return dict(r.json())

        async def join(room_id: str, name: str) -> dict[str, Any]:
            r = await http.post(f"/api/rooms/{room_id}/seats", json={"name": name})
            assert r.status_code == 201, r.text
            return dict(r.json())

        # Room "finished": a whole match of two people, then (where there is one) a rematch.
        made = await create(2, 0)
        rid = made["room_id"]
        bo = await join(rid, "Bo")
        tokens = {made["seat"]: made["token"], bo["seat"]: bo["token"]}
        seats = {s: await Seat(ws_base, rid, t).connect() for s, t in tokens.items()}
        moves = 0
        while await play_one(seats, rng):
            moves += 1
            if moves == 30:
                await chat(seats[0], "hej, lycka till")
        summary = (await http.get(f"/api/rooms/{rid}")).json()
        assert summary["status"] == "finished", summary
        records = {}
        for n in range(1, summary["deal_no"] + 1):
            r = await http.get(f"/api/rooms/{rid}/deals/{n}")
            assert r.status_code == 200, r.text
            records[str(n)] = r.json()
        finished_views = await fresh_views(ws_base, rid, tokens)
        await seats[0].ws.send(json.dumps({"type": "rematch"}))
        await settle(list(seats.values()))
        if seats[1].view.get("rematch"):  # an offer the other must accept (issue 33)
            await seats[1].ws.send(json.dumps({"type": "rematch"}))
            await settle(list(seats.values()))
        rematched = seats[0].view.get("status") == "playing"
        for _ in range(7 if rematched else 0):
            await play_one(seats, rng)
        for s in seats.values():
            await s.close()
        rooms.append(
            {
                "name": "finished",
                "room_id": rid,
                "tokens": tokens,
                "moves": moves,
                "records": {"1": records},
                "rematched": rematched,
                "before_rematch": finished_views,
                "resume": await fresh_views(ws_base, rid, tokens),
            }
        )

        # Room "playing": two people and a bot, a person to move in the middle of deal 1.
        made = await create(3, 1)
        rid = made["room_id"]
        cy = await join(rid, "Cy")
        tokens = {made["seat"]: made["token"], cy["seat"]: cy["token"]}
        seats = {s: await Seat(ws_base, rid, t).connect() for s, t in tokens.items()}
        for _ in range(14):
            await play_one(seats, rng)
        await settle(list(seats.values()))
        assert seats[0].view["to_move"] in seats, "a person should be to move"
        for s in seats.values():
            await s.close()
        rooms.append(
            {
                "name": "playing",
                "room_id": rid,
                "tokens": tokens,
                "resume": await fresh_views(ws_base, rid, tokens),
            }
        )

        # Room "waiting": one of two seats taken.
        made = await create(2, 0)
        rooms.append(
            {
                "name": "waiting",
                "room_id": made["room_id"],
                "tokens": {made["seat"]: made["token"]},
                "resume": await fresh_views(
                    ws_base, made["room_id"], {made["seat"]: made["token"]}
                ),
            }
        )
    return rooms


def start_server(tree: Path, database_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        LOG_LEVEL="warning",
        DEFAULT_BOT_DELAY="0",
        DEFAULT_DEAL_PAUSE="0",
        BOTS_ONLY_DELAY="0",
        PYTHONPATH=str(tree),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tree,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the old server exited; see {log}"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the old server did not start")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(30)


def write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    path.write_text(json.dumps(manifest, separators=(",", ":"), sort_keys=True) + "\n")


def sqlite_counts(path: Path) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        names = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {n: con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in sorted(names)}
    finally:
        con.close()


async def postgres_counts(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        names = [
            r["tablename"]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        return {n: await conn.fetchval(f'SELECT count(*) FROM "{n}"') for n in sorted(names)}
    finally:
        await conn.close()


async def admin(sql: str) -> None:
    conn = await asyncpg.connect(POSTGRES_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def make(revision: str, commit: str, seed: int) -> None:
    target = OUT / revision
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(
            ["git", "archive", commit], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        log = target / "server.log"
        log.unlink(missing_ok=True)
        port = 18700 + int(revision)

        # SQLite
        db = Path(tmp) / "krypkasino.db"
        proc = start_server(tree, f"sqlite+aiosqlite:///{db}", port, log)
        try:
            rooms = asyncio.run(play_rooms(f"http://127.0.0.1:{port}", random.Random(seed)))
        finally:
            stop_server(proc)
        con = sqlite3.connect(db)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        with db.open("rb") as f, gzip.GzipFile(target / "sqlite.db.gz", "wb", mtime=0) as g:
            shutil.copyfileobj(f, g)
        manifest = {
            "revision": revision,
            "commit": commit,
            "database": "sqlite",
            "rooms": rooms,
            "counts": sqlite_counts(db),
        }
        write_manifest(target / "sqlite.json", manifest)

        # PostgreSQL
        name = f"kk_fixture_{revision}"
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        asyncio.run(admin(f'CREATE DATABASE "{name}"'))
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
        proc = start_server(
            tree, url.replace("postgresql://", "postgresql+asyncpg://", 1), port, log
        )
        try:
            rooms = asyncio.run(play_rooms(f"http://127.0.0.1:{port}", random.Random(seed)))
        finally:
            stop_server(proc)
        dump = subprocess.run(
            ["pg_dump", "--inserts", "--no-owner", "--no-privileges", "--no-comments", url],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        # psql's meta-commands (\restrict ...) mean nothing to a plain connection.
        dump = "".join(line for line in dump.splitlines(keepends=True) if not line.startswith("\\"))
        (target / "postgres.sql").write_text(dump)
        manifest = {
            "revision": revision,
            "commit": commit,
            "database": "postgres",
            "rooms": rooms,
            "counts": asyncio.run(postgres_counts(url)),
        }
        write_manifest(target / "postgres.json", manifest)
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        log.unlink(missing_ok=True)
    print(f"{revision}: fixtures from {commit} in {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="+", help="REVISION=COMMIT, e.g. 0001=42565b1")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    for pair in args.pairs:
        revision, _, commit = pair.partition("=")
        make(revision, commit, args.seed)


if __name__ == "__main__":
    main()
