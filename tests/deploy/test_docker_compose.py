"""docker-compose.yml with a real Docker engine, driven by the README's own commands:
a fresh `.env` and `docker compose up` bring PostgreSQL, Redis, the migration and
the server to healthy, and a deal plays; `restart` and `down`/`up` keep every room
and every row; two app replicas share a room.

Needs a Docker engine (skipped without one, except under CI=true); base images
absent from the engine are stood in for locally (tests/deploy/docker_engine.py)."""

from __future__ import annotations

import re
import socket
import subprocess
from pathlib import Path
from typing import Any

from tests.deploy.docker_engine import ROOT, run
from tests.deploy.docker_play import Seat, Stack, Table, answers, free_port, wait_for

README = ROOT / "README.md"


def readme_compose_lines() -> list[str]:
    """The README's self-hosting commands: the code block that runs `docker compose up`."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    block = next(b for b in blocks if "docker compose up" in b)
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines()]
    return [line for line in lines if line]


def two_free_ports() -> int:
    """The first of two consecutive free ports on 127.0.0.1 (a range for two replicas)."""

    def pair() -> int | None:
        port = free_port()
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
        except OSError:
            return None
        return port

    return int(wait_for("two consecutive free ports", pair, 10))


GROWING = "outbox_handled"
"""The outbox dispatcher's record of the events it has handed on, after each move's
commit: by a restart it may have handled more of them, never fewer."""


def rooms_state(stack: Stack, tables: list[Table]) -> dict[str, Any]:
    """Every stored row, counted by table, and what each room's summary says."""
    return {
        "rows": stack.row_counts(),
        "rooms": {t.room_id: t.summary() for t in tables},
    }


def kept_every_row(now: dict[str, Any], before: dict[str, Any]) -> bool:
    """The same rows and rooms as ``before``, the outbox's record of handed-on events
    aside (it grows while the dispatcher catches up)."""
    rows, old = dict(now["rows"]), dict(before["rows"])
    handled, old_handled = rows.pop(GROWING), old.pop(GROWING)
    return rows == old and now["rooms"] == before["rooms"] and handled >= old_handled


def start_from_readme(stack: Stack) -> subprocess.Popen[bytes]:
    """Run the README's lines as written: the `.env` line, then `docker compose up`
    in the foreground, as a person runs it in a terminal (its output to a file)."""
    lines = readme_compose_lines()
    assert lines[-1] == "docker compose up", lines
    assert not (stack.folder / ".env").exists()
    for line in lines[:-1]:
        stack.sh(line)
    assert re.fullmatch(r"POSTGRES_PASSWORD=[0-9a-f]{48}\n", (stack.folder / ".env").read_text())
    log = (stack.folder.parent / "compose-up.log").open("wb")
    return subprocess.Popen(
        [*stack.compose, "up"], cwd=stack.folder, env=stack.env, stdout=log, stderr=log
    )


def test_compose_up_restart_down_up_and_two_replicas_keep_every_room(
    image: str, make_stack: Any, stack_folder: Path
) -> None:
    stack: Stack = make_stack(image)
    foreground = start_from_readme(stack)
    try:
        stack.wait_healthy(timeout=240)
    except AssertionError:
        foreground.kill()
        raise
    assert answers(stack.base)

    # The engine's own limit of open files is all the app gets and asks for (a compose
    # file asking for more than the engine allows stops the container from starting).
    engine_limit = run(["sh", "-c", "ulimit -Hn"]).stdout.strip()
    (app,) = stack.containers("app")
    limits = run(["docker", "exec", app, "cat", "/proc/1/limits"]).stdout
    hard = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits)
    assert hard is not None and hard.group(2) == engine_limit, limits
    assert hard.group(1) == hard.group(2), "the server raised its soft limit to the hard one"

    finished = Table.open(stack.base)
    halfway = Table.open(stack.base, deals=2)
    try:
        assert finished.play() >= 20
        assert finished.summary()["status"] == "finished"
        assert halfway.play(7) == 7
    finally:
        finished.close()
        halfway.close()
    before = rooms_state(stack, [finished, halfway])
    assert before["rows"]["rooms"] == 2 and before["rows"]["events"] > 30

    stack("restart")
    stack.wait_healthy()
    assert kept_every_row(rooms_state(stack, [finished, halfway]), before), "restart kept rows"

    stack("down")  # the volumes stay: `down` without -v
    try:
        foreground.wait(timeout=60)  # the foreground `up` ends with its containers
    except subprocess.TimeoutExpired:
        foreground.kill()
    stack("up", "-d")
    stack.wait_healthy()
    assert kept_every_row(rooms_state(stack, [finished, halfway]), before), "down, up kept rows"

    # The room left halfway resumes where it stopped, to the end of its match.
    halfway.connect()
    try:
        assert halfway.play() > 0
    finally:
        halfway.close()
    assert halfway.summary()["status"] == "finished"

    # Two replicas (docs/deploy.md: a port range and --scale): players on one, a
    # spectator on the other sees every move live.
    first = two_free_ports()
    stack.env["KRYPKASINO_LISTEN"] = f"127.0.0.1:{first}-{first + 1}"
    stack("up", "-d", "--scale", "app=2")
    stack.wait_healthy()
    replicas = stack.containers("app")
    assert len(replicas) == 2
    bases = []
    for index in (1, 2):
        port = stack("port", "--index", str(index), "app", "8000").stdout.strip()
        bases.append("http://" + port.replace("0.0.0.0", "127.0.0.1"))
    assert len(set(bases)) == 2, bases
    shared = Table.open(bases[0])
    spectator = Seat(bases[1], shared.room_id, None)
    try:
        played = shared.play(6)
        spectator.wait_seq(shared.seats[0].seq, timeout=30)
        assert spectator.patches >= played
        for key in ("table", "log", "to_move", "hand_counts"):
            assert spectator.view[key] == shared.seats[0].view[key], key
    finally:
        spectator.close()
        shared.close()
