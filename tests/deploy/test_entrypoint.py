"""The image's own start commands, run outside Docker against a local PostgreSQL.

The Dockerfile's ENTRYPOINT and CMD are read from the Dockerfile and mapped
back to the files they copy from the repository (deploy/entrypoint.sh), and
run here as the container would run them: in a fresh database, on a free
port, until GET /healthz answers 200; then the image's HEALTHCHECK command
runs against it, and the server is stopped the way `docker stop` stops it
(SIGTERM).

PostgreSQL: POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/test)
names a server and a user allowed to create databases; each test creates its
own database and drops it afterwards.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import ROOT, require_service, run_async
from tests.deploy import dockerfile

pytestmark = pytest.mark.postgres

POSTGRES_URL = os.environ.get("POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0  # docker stop's default grace period


def _with_database(url: str, name: str, scheme: str | None = None) -> str:
    parts = urlsplit(url)
    return urlunsplit((scheme or parts.scheme, parts.netloc, "/" + name, "", ""))


def _admin(sql: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(POSTGRES_URL, timeout=10)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    run_async(run())


def _fetch(database: str, sql: str) -> list:
    import asyncpg

    async def run() -> list:
        conn = await asyncpg.connect(_with_database(POSTGRES_URL, database), timeout=10)
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()

    return run_async(run())


def _postgres_answers() -> bool:
    try:
        _admin("SELECT 1")
    except Exception:  # noqa: BLE001 (any failure means: not usable here)
        return False
    return True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _image_command(df: dockerfile.Dockerfile, words: list[str]) -> list[str]:
    """A command written for the image, with its copied files mapped to the repository's."""
    out = []
    for word in words:
        if word.startswith("/"):
            local = dockerfile.image_path_to_repo(df, word, ROOT)
            out.append(str(local) if local else word)
        elif word == "python":
            out.append(sys.executable)
        else:
            out.append(word)
    return out


@pytest.fixture(scope="module")
def image() -> dockerfile.Dockerfile:
    return dockerfile.parse(ROOT / "Dockerfile")


@pytest.fixture
def database():
    require_service(_postgres_answers(), f"PostgreSQL does not answer at {POSTGRES_URL}")
    name = "krypkasino_deploy_" + secrets.token_hex(4)
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def container_env(database) -> dict[str, str]:
    """The environment the image gives the server, pointed at this machine."""
    bin_dir = Path(sys.executable).parent
    require_service(
        (bin_dir / "krypkasino").exists(),
        f"the krypkasino command is not installed in {bin_dir} (./dev.sh env)",
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "HOST", "PORT", "PUBLIC_URL")
    }
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        DATABASE_URL=_with_database(POSTGRES_URL, database, "postgresql+asyncpg"),
        HOST="127.0.0.1",
        PORT=str(_free_port()),
        LOG_LEVEL="info",
        PYTHONUNBUFFERED="1",
    )
    return env


def _healthz(port: str) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, OSError):
        return None


def test_entrypoint_migrate_only(image, database, container_env):
    entrypoint = _image_command(image, image.final.last("ENTRYPOINT").exec_form())
    proc = subprocess.run(
        [*entrypoint, "migrate"],
        cwd=ROOT,
        env=container_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _fetch(database, "SELECT version_num FROM alembic_version"), "migrations applied"


def test_image_start_command_serves_and_stops_on_sigterm(image, database, container_env, tmp_path):
    entrypoint = _image_command(image, image.final.last("ENTRYPOINT").exec_form())
    cmd = image.final.last("CMD").exec_form()
    assert entrypoint[0] == str(ROOT / "deploy" / "entrypoint.sh")
    port = container_env["PORT"]
    healthcheck = _image_command(image, image.final.last("HEALTHCHECK").exec_form())

    # Before the server runs, the health check must fail.
    down = subprocess.run(healthcheck, cwd=ROOT, env=container_env, capture_output=True, timeout=30)
    assert down.returncode != 0

    log = (tmp_path / "server.log").open("w+")
    proc = subprocess.Popen(
        [*entrypoint, *cmd],
        cwd=ROOT,
        env=container_env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        status = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            status = _healthz(port)
            if status == 200:
                break
            time.sleep(0.25)
        log.flush()
        output = (tmp_path / "server.log").read_text()
        assert proc.poll() is None, f"the server exited ({proc.returncode}):\n{output}"
        assert status == 200, f"/healthz answered {status} within {START_TIMEOUT}s:\n{output}"

        # The image's HEALTHCHECK command agrees.
        up = subprocess.run(
            healthcheck, cwd=ROOT, env=container_env, capture_output=True, text=True, timeout=30
        )
        assert up.returncode == 0, up.stderr
        # The entrypoint applied the migrations, and the page is served.
        assert _fetch(database, "SELECT version_num FROM alembic_version")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert r.status == 200

        # `docker stop`: SIGTERM to the container's main process. The entrypoint
        # exec'd the server, so the server itself gets it and must exit in time.
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server did not stop within {STOP_TIMEOUT}s of SIGTERM")
        output = (tmp_path / "server.log").read_text()
        # uvicorn shuts down gracefully, then re-raises the signal it caught
        # (-SIGTERM here; as a container's PID 1 that re-raise is ignored and
        # the exit status is 0).
        assert code in (0, -signal.SIGTERM), f"exit status {code} after SIGTERM:\n{output}"
        assert "Application shutdown complete" in output, output
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()


def test_entrypoint_runs_other_commands(image, container_env):
    entrypoint = _image_command(image, image.final.last("ENTRYPOINT").exec_form())
    proc = subprocess.run(
        [*entrypoint, "krypkasino", "--help"],
        cwd=ROOT,
        env=container_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "serve" in proc.stdout and "migrate" in proc.stdout
