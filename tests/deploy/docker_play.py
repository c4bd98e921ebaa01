"""Playing over a container's published port, and a compose project driven as a
self-hoster drives it, for the Docker tests (tests/deploy/test_docker_*.py).

The table helpers speak the wire protocol with a plain WebSocket client and no
schema of the server's: the same code plays on the release under test and on
an image built from an earlier release, whose protocol the current schema need
not describe.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
from websockets.sync.client import ClientConnection, connect

from tests.deploy.docker_engine import ROOT, compose_command, run

PROJECT = "com.docker.compose.project"
SERVICE = "com.docker.compose.service"
"""The labels Compose (v1 and v2) puts on each container it makes."""

PLAY_INTERVAL = 0.1
"""Seconds between one seat's plays: well under the default rate limit (20 a second)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(what: str, check: Any, timeout: float, detail: Any = lambda: "") -> Any:
    """Poll ``check`` (every 0.2 s, bounded by ``timeout``) until it returns something
    true: these waits are on containers, which announce nothing."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}\n{detail()}")
        time.sleep(0.2)


def answers(base: str) -> bool:
    try:
        return httpx.get(base + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


class Seat:
    """One connection to a room (a player with a token, or a spectator without),
    keeping its view by applying the server's patches."""

    def __init__(self, base: str, room_id: str, token: str | None) -> None:
        url = base.replace("http", "ws", 1) + f"/ws/rooms/{room_id}"
        self.ws: ClientConnection = connect(url, max_size=2**22).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token, "last_seq": None}))
        self.view: dict[str, Any] = {}
        self.seq = -1
        self.patches = 0
        self.last_play = 0.0
        self.wait_seq(0)

    def handle(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "snapshot":
            self.view, self.seq = msg["view"], msg["seq"]
        elif msg["type"] == "patch":
            assert msg["seq"] == self.seq + 1, f"seq gap {self.seq} -> {msg['seq']}"
            self.view = jsonpatch.apply_patch(self.view, msg["ops"])
            self.seq = msg["seq"]
            self.patches += 1

    def read_until(self, done: Any, timeout: float = 30) -> dict[str, Any] | None:
        """Read messages until ``done(last message read, or None)`` holds; returns that
        message."""
        deadline = time.monotonic() + timeout
        last: dict[str, Any] | None = None
        while not done(last):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message within {timeout} s; at seq {self.seq}")
            last = json.loads(self.ws.recv(timeout=left))
            self.handle(last)
        return last

    def wait_seq(self, seq: int, timeout: float = 30) -> None:
        self.read_until(lambda _m: self.seq >= seq, timeout)

    def play_first_legal(self) -> int:
        """Play the first legal move; returns the seq its ack names."""
        wait = self.last_play + PLAY_INTERVAL - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.last_play = time.monotonic()
        move = self.view["legal"][0]
        msg_id = uuid.uuid4().hex
        self.ws.send(
            json.dumps({"type": "play", "id": msg_id, "card": move["card"], "take": move["take"]})
        )
        answer = self.read_until(
            lambda m: m is not None and m["type"] in ("ack", "error") and m.get("id") == msg_id
        )
        assert answer is not None and answer["type"] == "ack", answer
        return int(answer["seq"])

    def close(self) -> None:
        self.ws.close()


@dataclass
class Table:
    """A 2-player room of two people, Ann and Bo, at ``base``."""

    base: str
    room_id: str
    seats: list[Seat] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, base: str, *, deals: int = 1) -> Table:
        rules = {"single_pack": True, "match_deals": deals}
        made = httpx.post(
            base + "/api/rooms",
            json={"players": 2, "name": "Ann", "bots": 0, "rules": rules},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        room = made.json()
        bo = httpx.post(
            f"{base}/api/rooms/{room['room_id']}/seats", json={"name": "Bo"}, timeout=10
        )
        assert bo.status_code == 201, bo.text
        table = cls(base, room["room_id"], tokens=[room["token"], bo.json()["token"]])
        table.connect()
        return table

    def connect(self) -> None:
        self.seats = [Seat(self.base, self.room_id, token) for token in self.tokens]

    def play(self, moves: int | None = None) -> int:
        """Play ``moves`` moves (all, to the end of the match, when None); returns
        how many were played."""
        played = 0
        while moves is None or played < moves:
            top = max(s.seq for s in self.seats)
            for s in self.seats:
                s.wait_seq(top)
            view = self.seats[0].view
            if view["status"] != "playing":
                break
            if view["to_move"] is None:  # between deals: everyone says Continue
                for s in self.seats:
                    s.ws.send(json.dumps({"type": "continue"}))
                self.seats[0].read_until(lambda _m: self.seats[0].view["to_move"] is not None)
                continue
            mover = self.seats[view["to_move"]]
            seq = mover.play_first_legal()
            for s in self.seats:
                s.wait_seq(seq)
            played += 1
        return played

    def summary(self) -> dict[str, Any]:
        got = httpx.get(f"{self.base}/api/rooms/{self.room_id}", timeout=10)
        assert got.status_code == 200, got.text
        return dict(got.json())

    def close(self) -> None:
        for s in self.seats:
            s.close()


def project_files(target: Path) -> Path:
    """A copy of the files git tracks (and the working tree's changes to them), as a
    self-hoster's clone holds them: the compose project's folder."""
    listed = run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    )
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


class Stack:
    """A compose project in a folder of its own, driven with the README's commands.

    Every project gets its own name (so its containers, network and volumes are its
    own), publishes its port on 127.0.0.1 only, and tags its image ``krypkasino-test``
    so that a self-hoster's own ``krypkasino`` images are never touched."""

    def __init__(self, folder: Path, *, image: str) -> None:
        self.folder = folder
        self.name = "kktest" + secrets.token_hex(4)
        self.port = free_port()
        cmd = compose_command()
        assert cmd is not None
        self.compose = cmd
        self.env = {
            **{
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("POSTGRES_", "KRYPKASINO_"))
            },
            "COMPOSE_PROJECT_NAME": self.name,
            "KRYPKASINO_LISTEN": f"127.0.0.1:{self.port}",
            "KRYPKASINO_IMAGE": image,
        }

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def sh(self, line: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        """A line of the README or docs/deploy.md, as a shell runs it in the project's
        folder, with `docker compose` meaning whichever Compose is installed."""
        line = re.sub(r"\bdocker compose\b", " ".join(self.compose), line)
        return run(["sh", "-c", line], cwd=self.folder, env=self.env, timeout=timeout)

    def __call__(
        self, *args: str, timeout: float = 900, **env: str
    ) -> subprocess.CompletedProcess[str]:
        return run(
            [*self.compose, *args], cwd=self.folder, env={**self.env, **env}, timeout=timeout
        )

    def containers(self, service: str) -> list[str]:
        """The project's containers of ``service``, running or not.

        Asked of the engine by the labels Compose (v1 and v2) puts on them: a
        `docker-compose ps` costs half a second of CPU (v1 is a Python program), and
        the health waits ask several times a second."""
        return list(self.states(service))

    def states(self, *services: str) -> dict[str, dict[str, Any]]:
        """Each container of ``services`` (all of the project's when none is named):
        its service and Docker's ``State`` (health included), in two engine calls."""
        ids = run(
            ["docker", "ps", "-a", "-q", "--no-trunc", "--filter", f"label={PROJECT}={self.name}"]
        ).stdout.split()
        if not ids:
            return {}
        found = json.loads(run(["docker", "inspect", *ids]).stdout)
        return {
            c["Id"]: {"service": c["Config"]["Labels"].get(SERVICE), **c["State"]}
            for c in found
            if not services or c["Config"]["Labels"].get(SERVICE) in services
        }

    def logs(self) -> str:
        """The last lines every service logged (for a failure's message)."""
        done = run(
            [*self.compose, "logs", "--no-color", "--tail", "60"],
            cwd=self.folder,
            env=self.env,
            check=False,
        )
        return done.stdout[-8000:]

    def wait_healthy(
        self, services: tuple[str, ...] = ("postgres", "redis", "app"), timeout: float = 150
    ) -> None:
        """Every service of ``services`` has its containers, each reporting healthy
        (Docker's health checks as the compose file and the image define them), and the
        migrate step has exited 0."""

        def all_healthy() -> bool:
            found = self.states(*services, "migrate")
            made = {state["service"] for state in found.values()}
            if made != {*services, "migrate"}:
                return False  # compose has not made every container yet
            health = {
                c: str(state.get("Health", {}).get("Status") or state["Status"])
                for c, state in found.items()
                if state["service"] != "migrate"
            }
            broken = {c: h for c, h in health.items() if h in ("unhealthy", "exited", "dead")}
            assert not broken, f"containers failed: {broken}\n{self.logs()}"
            for state in found.values():
                if state["service"] == "migrate":
                    if state["Status"] != "exited":
                        return False
                    assert state["ExitCode"] == 0, f"migrate failed\n{self.logs()}"
            return all(h == "healthy" for h in health.values())

        wait_for(f"{services} to be healthy", all_healthy, timeout, self.logs)

    def psql(self, query: str) -> str:
        """What ``psql -At`` prints for ``query`` (its lines read from stdin, so a
        backslash command may follow), run in the PostgreSQL container."""
        (container,) = self.containers("postgres")
        if not query.rstrip().endswith((";", "\\gexec")):
            query += ";"
        done = run(
            ["docker", "exec", "-i", container, "sh", "-c"]
            + ['psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -At'],
            input_bytes=query.encode(),
        )
        return done.stdout.strip()

    def row_counts(self) -> dict[str, int]:
        """Every table's rows, counted in one psql run (`\\gexec` runs each count)."""
        out = self.psql(
            "SELECT format('SELECT %L, count(*) FROM %I', tablename, tablename) "
            "FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename \\gexec\n"
        )
        return {t: int(n) for t, n in (line.split("|") for line in out.splitlines())}

    def down(self) -> None:
        run(
            [*self.compose, "down", "-v", "--remove-orphans", "--timeout", "5"],
            cwd=self.folder,
            env=self.env,
            check=False,
            timeout=300,
        )
