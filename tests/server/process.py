"""Real server processes for the tests: started on a free port with the test
settings, stopped or killed -9, and looked into (readiness, /metrics, the database,
the ``krypkasino`` command beside them).  tests/server/harness.py re-exports all of
it beside its WebSocket client."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC
from pathlib import Path
from typing import Any

import httpx

from tests import fetch
from tests.server.forked import ForkedProcess, run_command, start_server
from tests.waiting import wait_healthy, wait_until, wait_until_async

TEST_LIMITS = {
    "ROOM_CREATE_PER_MINUTE": "0",
    "JOIN_PER_MINUTE": "0",
    "CODE_LOOKUP_PER_MINUTE": "0",
    "MAX_ROOMS_PER_IP": "0",
    "MAX_ROOMS": "0",
    "WS_PER_IP": "0",
    "WS_PER_ROOM": "0",
    "BAD_TOKEN_PER_MINUTE": "0",
    "BOTS_ONLY_DELAY": "0",
    "PUBLIC_LIST_PER_MINUTE": "0",
    "WS_MAX": "0",
    "METRICS_PUBLIC": "true",
    "COACH_ON_DEAL_END": "false",
    "COACH_SAMPLES": "4",
    "DAILY_RANKED_PER_ADDRESS": "0",
    "RATINGS_SHARED_DAYS": "0",
}
"""The per-address limits and caps, off, and bots alone at full speed: every test's
client is 127.0.0.1 and many of them make more rooms and sockets than a person would.
The tests of the limits (tests/server/test_http_limits.py, test_room_limits.py) set
the real numbers explicitly.  /metrics is open on the main port, so that tests read
the server's figures there (tests/server/test_metrics_access.py checks the default,
which refuses).  Every test client shares one address, so the deal of the day ranks
every play and accounts seen there still rate each other (the tests of those rules,
tests/server/test_daily_hostile.py and test_ratings_hostile.py, set them).  The coach
analyses a deal only when asked (its tests,
tests/server/test_coach.py, turn analysis at each deal's end back on), so that no other
test shares the machine with analyses it did not ask for, and with 4 worlds a play
rather than 48 to 192 (the tests that judge the coach's labels set their own number;
the others need an analysis, not a good one).  A test that waits for an
analysis sets ``COACH_PRIORITY`` low (``WAITS_FOR_ANALYSES``): in the idle class a
busy CI machine starved one for minutes."""

WAITS_FOR_ANALYSES = {"COACH_PRIORITY": "low"}
"""For a server whose test waits for its coach: the analyses get a share of a loaded
machine (nice 5) instead of only the CPU time nothing else wants.  Only there: the
analyses every replay page asks for would otherwise take CPU from the other tests."""


STARTED: list[ServerProcess] = []
"""Every server process this worker started, in order: a failing test's report shows
the end of the logs of those it started (tests/conftest.py), so that a failure seen
once on a loaded machine (a server that died, a port another server answered on)
can be read afterwards instead of guessed at."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    def __init__(
        self,
        database_url: str,
        *,
        port: int | None = None,
        env: dict[str, str] | None = None,
        log_path: Path | None = None,
    ) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.extra_env = env or {}
        self.proc: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.stopping = False
        """Sent SIGTERM by ``stop_soon``, and perhaps not ended yet."""
        self.own_log = log_path is None
        """The log is a temporary file of ours (removed when the test is over)."""
        if log_path is None:
            fd, name = tempfile.mkstemp(prefix="krypkasino-server-", suffix=".log")
            os.close(fd)
            log_path = Path(name)
        self.log_path: Path = log_path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> ServerProcess:
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": self.database_url,
                "LOG_LEVEL": "warning",
                "DEFAULT_BOT_DELAY": "0",
                "DEFAULT_GRACE": "60",
                "DEFAULT_DEAL_PAUSE": "0",
                **TEST_LIMITS,
            }
        )
        env.update(self.extra_env)
        argv = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1"]
        self.proc = start_server([*argv, "--port", str(self.port)], env, self.log_path)
        STARTED.append(self)
        wait_healthy(self.url, self.proc, self.log_path, timeout)
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def stop_soon(self) -> None:
        """``stop`` without waiting for the end, for a fixture's teardown: the server's
        graceful stop (0.4 s, most of it its own pauses) then overlaps the next test.
        ``end_stopping`` kills it if it is still there after ``STOP_WAIT`` seconds,
        as ``stop`` would, and the test process waits for every one before it ends."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.stopping = True
            _stopping.append((time.monotonic() + STOP_WAIT, self.proc))
        end_stopping()


STOP_WAIT = 15.0
"""Seconds a server has to end once sent SIGTERM, before it is killed."""

_stopping: list[tuple[float, subprocess.Popen[bytes] | ForkedProcess]] = []
"""Servers sent SIGTERM by ``stop_soon``, and when each is to be killed if still there."""


def end_stopping(wait: bool = False) -> None:
    """Forget the servers ``stop_soon`` stopped that have ended, kill those past their
    time; with ``wait``, wait for every one to end (at the end of the test process)."""
    for entry in list(_stopping):
        deadline, proc = entry
        if wait:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is None:
            if time.monotonic() < deadline:
                continue
            proc.kill()
            proc.wait(5)
        _stopping.remove(entry)


def ready(server: ServerProcess) -> bool:
    """Whether the server's readiness check passes right now."""
    try:
        return fetch.get(server.url + "/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


async def wait_ready(server: ServerProcess, want: bool = True, timeout: float = 30) -> float:
    """Wait until /readyz answers ready (or not ready, with ``want=False``); returns the
    seconds it took."""
    started = time.monotonic()
    await wait_until_async(
        lambda: ready(server) == want,
        timeout,
        message=f"/readyz to become {'ready' if want else 'not ready'}",
    )
    return time.monotonic() - started


def metric(server: ServerProcess, name: str, **labels: str) -> float:
    """One sample of the server's /metrics (0 when it has none)."""
    text = fetch.get(server.url + "/metrics", timeout=5).text
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        sample, _, rest = key.partition("{")
        if sample == name and ",".join(sorted(rest.rstrip("}").split(","))) == want:
            return float(value)
    return 0.0


async def wait_metric(
    server: ServerProcess, name: str, want: float, timeout: float = 20, **labels: str
) -> None:
    """Wait until the server's metric ``name`` reads ``want``.  A gauge follows its
    event a moment later (the Redis subscriber notices a lost connection when the
    event loop next runs it), while /readyz asks Redis itself."""
    await wait_until_async(
        lambda: metric(server, name, **labels) == want,
        timeout,
        message=lambda: f"{name} to read {want} (it reads {metric(server, name, **labels)})",
    )


def looked_again(servers: list[ServerProcess], loop: str, rounds: int = 3) -> None:
    """Wait until every server's background ``loop`` ("ratings", "digest") has finished
    ``rounds`` more rounds than now: what a test waits on to show that more looks by
    every process add nothing, instead of sleeping for "long enough"."""
    name = "krypkasino_background_rounds_total"
    start = [metric(s, name, loop=loop) for s in servers]
    for server, before in zip(servers, start, strict=True):
        wait_until(
            lambda server=server, before=before: metric(server, name, loop=loop) >= before + rounds,
            60,
            message=lambda server=server: f"{rounds} more {loop} rounds on {server.url}",
        )


def through(url: str, port: int) -> str:
    """The same database or Redis URL, reached on 127.0.0.1:``port`` (a TcpProxy)."""
    from sqlalchemy.engine import make_url

    if url.startswith("redis"):
        scheme, _, rest = url.partition("://")
        tail = rest.split("/", 1)[1] if "/" in rest else ""
        return f"{scheme}://127.0.0.1:{port}/{tail}"
    return make_url(url).set(host="127.0.0.1", port=port).render_as_string(hide_password=False)


def sql(database_url: str, statement: str, **params: Any) -> list[Any]:
    """Run one SQL statement on the test database (to age rows, or count them)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from tests.conftest import run_async

    async def run() -> list[Any]:
        engine = create_async_engine(database_url)
        try:
            async with engine.begin() as conn:
                result = await conn.execute(text(statement), params)
                return list(result.all()) if result.returns_rows else []
        finally:
            await engine.dispose()

    return run_async(run())


def backdate(database_url: str, room_id: str, days: float) -> None:
    """Make a room's last change ``days`` days older (as if it finished long ago)."""
    from datetime import datetime, timedelta

    when: Any = datetime.now(UTC) - timedelta(days=days)
    if database_url.startswith("sqlite"):  # the text form SQLAlchemy stores there (UTC)
        when = when.strftime("%Y-%m-%d %H:%M:%S.%f")
    sql(database_url, "UPDATE rooms SET updated_at = :t WHERE id = :id", t=when, id=room_id)


def krypkasino(
    database_url: str, *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run the ``krypkasino`` command on a database, as an operator would."""
    full = dict(os.environ)
    full.update({"DATABASE_URL": database_url, "LOG_LEVEL": "warning"})
    full.pop("REDIS_URL", None)
    full.update(env or {})
    return run_command(list(args), full, timeout)


async def krypkasino_beside(
    database_url: str, *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``krypkasino`` run from a test that holds open sockets.

    The command runs in a thread so the event loop keeps answering the server's
    keepalive pings: a loaded machine can take longer than the server's ping
    timeout to start a handful of commands, and a blocked loop then loses its
    sockets with 1011, which is the test's fault, not the server's."""
    return await asyncio.to_thread(krypkasino, database_url, *args, env=env, timeout=timeout)
