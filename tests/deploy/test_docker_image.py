"""The image alone, as docs/deploy.md runs it: built with a real Docker engine, it
serves a whole deal over its published port on SQLite, runs as its own user, and
keeps its rooms when the container is stopped and started again.

Needs a Docker engine (skipped without one, except under CI=true, where .ci/run
starts dockerd); base images absent from the engine are stood in for locally
(tests/deploy/docker_engine.py)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator

import httpx
import pytest

from app import __version__
from tests.deploy.docker_engine import run
from tests.deploy.docker_play import Table, answers, free_port, wait_for


@pytest.fixture
def container(image: str) -> Iterator[tuple[str, str]]:
    """`docker run -p 127.0.0.1:PORT:8000 IMAGE` (docs/deploy.md): (name, base URL)."""
    name = "kktest-image-" + secrets.token_hex(4)
    port = free_port()
    run(["docker", "run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8000", image])
    try:
        yield name, f"http://127.0.0.1:{port}"
    finally:
        run(["docker", "rm", "-f", "-v", name], check=False)


def logs(name: str) -> str:
    done = run(["docker", "logs", "--tail", "40", name], check=False)
    return done.stdout[-4000:] + done.stderr[-4000:]


def health(name: str) -> str:
    state = json.loads(run(["docker", "inspect", name]).stdout)[0]["State"]
    return str(state.get("Health", {}).get("Status") or state["Status"])


def test_the_image_serves_a_whole_deal_on_sqlite_and_keeps_it_across_a_restart(
    container: tuple[str, str],
) -> None:
    name, base = container
    wait_for("the server to answer", lambda: answers(base), 90, lambda: logs(name))
    assert httpx.get(base + "/healthz", timeout=5).json()["version"] == __version__
    assert run(["docker", "exec", name, "id", "-u"]).stdout.strip() == "10001"

    table = Table.open(base)
    try:
        played = table.play()
    finally:
        table.close()
    assert played >= 20, "a single-pack deal of two has 52 plays"
    assert table.summary()["status"] == "finished"
    assert (
        httpx.get(f"{base}/api/rooms/{table.room_id}/matches/1/deals/1", timeout=10).status_code
        == 200
    )

    # The image's own health check (docker inspect) reports the server healthy.
    wait_for("the image's health check", lambda: health(name) == "healthy", 60, lambda: logs(name))

    run(["docker", "restart", "-t", "5", name])
    wait_for("the server to answer again", lambda: answers(base), 90, lambda: logs(name))
    assert table.summary()["status"] == "finished", "the room outlived the restart"
