"""Shared test helpers: where fixtures live, and skipping rules for optional services.

Tests that need PostgreSQL, Redis or Chromium skip with a reason when the
service is missing on a user's machine; under CI=true they must run, so a
missing service there is a failure, not a skip.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings as hypothesis_settings

from tests.cheap_hashes import install as install_cheap_hashes
from tests.databases import PostgresDatabases

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
T = TypeVar("T")
IN_CI = os.environ.get("CI", "").lower() == "true"

install_cheap_hashes()  # Argon2id at cheap parameters in this process (tests/cheap_hashes.py)

# Property tests: the same examples on every CI run (a red build is the
# code's fault, not the dice's), fresh random ones on every local run, so
# that over time new corners are still explored.  A bug found at random gets
# a fixed example test beside its property (tests/engine/test_properties.py).
# HYPOTHESIS_PROFILE overrides the choice.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True, database=None)
hypothesis_settings.register_profile("dev")
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if IN_CI else "dev"))

LONG_FILES = (
    "tests/server/test_match.py",
    "tests/server/test_shared_rooms.py",
    "tests/ops/test_rooms_command.py",
    "tests/test_code_health.py",
    "tests/server/test_redis_outage.py",
    "tests/server/test_history.py",
    "tests/server/test_multiprocess.py",
    "tests/server/test_recovery.py",
    "tests/ops/test_purge_command.py",
)
"""Test files of few tests that take a minute or more (``--durations``).

The suite runs on xdist workers a file at a time (``--dist loadfile``), in the
order set here (``--no-loadscope-reorder``).  xdist's own order puts the files
with the most tests first, which put these last: they kept one or two workers
busy for minutes after the others had finished.  Started all at once they
slowed each other and the machine enough to break timing checks, so they
start once a third of the other files (the larger ones) are under way, and the
browser tests (tens of seconds of Chromium each, few to a file) follow them, then the
other files that start server processes (``starts_servers``: ten to twenty seconds a
test, few tests to a file, so by the count of their tests they came last and drew out
the end); the many short files fill the end."""


FIRST_FILES = (
    "tests/deploy/test_docker_compose.py",
    "tests/deploy/test_docker_upgrade.py",
    "tests/deploy/test_docker_image.py",
)
"""The Docker tests: the longest files of all (three to six minutes each for compose
and the upgrade, mostly waiting on containers' health checks).  Under xdist they run
on a worker of their own, the fifth, one after the other (tests/scheduling.py); first
in the order, that worker starts on them at once."""


def starts_servers(path: str) -> bool:
    """Whether a test file runs server processes (tests/server/harness.py's
    ``ServerProcess``, a browser test's ``Server``) or other programs (``subprocess``:
    the wheel's build and install, the container's entrypoint)."""
    text = Path(path).read_text(encoding="utf-8")
    return any(mark in text for mark in ("ServerProcess(", "Server(", "subprocess"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    by_file: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    first = [f for f in FIRST_FILES if f in by_file]
    long = [f for f in LONG_FILES if f in by_file]
    browser = sorted(f for f in by_file if f.startswith("tests/browser/"))
    rest = sorted(
        (f for f in by_file if f not in first and f not in long and f not in browser),
        key=lambda f: -len(by_file[f]),
    )
    cut = len(rest) // 3
    servers = [f for f in rest[cut:] if starts_servers(str(ROOT / f))]
    short = [f for f in rest[cut:] if f not in servers]
    order = first + rest[:cut] + long + browser + servers + short
    items[:] = [item for f in order for item in by_file[f]]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, with the Docker tests on a worker of their own
    (tests/scheduling.py)."""
    if config.getoption("dist") != "loadfile":
        return None
    from tests.scheduling import DockerAside

    return DockerAside(config, log)


@pytest.fixture(autouse=True)
def no_browser_loop_in_the_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside tests/browser, a test starts with no event loop running in its thread.

    Playwright's sync API leaves its loop marked as running in the worker's thread
    between browser tests (its driver waits in a greenlet), so a test that calls
    ``asyncio.run`` failed with "cannot be called from a running event loop" whenever
    its worker had run a browser file first: the order xdist happened to give decided
    it (three such failures in one loaded run of session 33).  The mark is lifted for
    the test and put back after it, before Playwright runs again."""
    loop = asyncio._get_running_loop()
    if loop is None or request.node.nodeid.startswith("tests/browser/"):
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


SERVERS_BEFORE = pytest.StashKey[int]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """How many servers had started before this test's fixtures ran."""
    from tests.server.process import STARTED

    item.stash[SERVERS_BEFORE] = len(STARTED)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing test's report ends with the logs of the server processes it started
    (tests/server/process.py ``STARTED``): whether each still ran, its exit code and the
    end of its log.  A failure that a loaded machine shows once (a server that died
    between two requests) is then read, not guessed at.  When the test is over, the
    temporary logs of its servers are removed."""
    from tests.server.process import STARTED

    outcome = yield
    report = outcome.get_result()
    before = item.stash.get(SERVERS_BEFORE, len(STARTED))
    running = [
        s
        for s in STARTED[:before]
        if not s.stopping and s.proc is not None and s.proc.poll() is None
    ]
    if report.failed:
        for n, server in enumerate(running + STARTED[before:]):
            proc = server.proc
            state = "not started" if proc is None else f"exit code {proc.poll()}"
            text = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
            report.sections.append(
                (f"server {n} at {server.url} ({state}) log", text[-3000:] or "(empty)")
            )
    if call.when == "teardown":
        # A server still running belongs to a longer-lived fixture: kept for the next test
        # (unless a fixture stopped it without waiting: ``stop_soon``).
        for server in list(STARTED):
            if server.proc is None or server.stopping or server.proc.poll() is not None:
                STARTED.remove(server)
                if server.own_log:
                    server.log_path.unlink(missing_ok=True)


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on a fresh event loop in its own thread.

    A thread, because Playwright's sync API keeps an event loop running in the
    main thread while the browser tests' session lasts, and asyncio.run refuses
    to start inside a running loop.
    """
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(_run_and_end_tasks, coro).result()


LEFT_TASKS_WAIT = 10.0
"""Seconds the tasks a test left running get to end once cancelled."""
RECANCEL_EVERY = 0.5
"""Seconds between the cancellations of a left task that has not ended yet."""


async def _end_tasks(left: set[asyncio.Task[Any]]) -> None:
    """Cancel ``left`` until each has ended or ``LEFT_TASKS_WAIT`` has passed.  Again
    and again, not once: a coroutine may catch one cancellation and await again in its
    ``finally`` (aiosqlite's ``close`` awaits its worker thread's stop there; a
    connection SQLAlchemy terminates, as one a cancelled task held, is closed so in a
    task of its own), and that second wait can last as long as the thread is busy or,
    if the thread has stopped, for ever."""
    waited = 0.0
    pending = set(left)
    while pending and waited < LEFT_TASKS_WAIT:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=RECANCEL_EVERY)
        waited += RECANCEL_EVERY


def _run_and_end_tasks(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run``, except that tasks left running are cancelled until they end, for
    ``LEFT_TASKS_WAIT`` seconds, not waited for without end: a task still running then
    fails the test, named with where it waits (``asyncio.run`` cancels once and waits
    for ever, and the whole suite waited with it)."""
    loop = asyncio.new_event_loop()
    try:
        asyncio.set_event_loop(loop)
        result = loop.run_until_complete(coro)
    finally:
        try:
            left = asyncio.all_tasks(loop)
            stuck: list[str] = []
            if left:
                loop.run_until_complete(_end_tasks(left))
                for task in left:
                    if not task.done():
                        frames = task.get_stack()
                        where = " <- ".join(
                            f"{f.f_code.co_name} ({f.f_code.co_filename}:{f.f_lineno})"
                            for f in reversed(frames)
                        )
                        stuck.append(f"{task.get_coro()!r} at {where}")
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
    if stuck:
        raise AssertionError(f"tasks that ignored their cancellation: {stuck}")
    return result


def require_service(available: bool, reason: str) -> None:
    """Skip (locally) or fail (CI=true) when a service the test needs is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: this test must run)")
    pytest.skip(reason)


POSTGRES_URL = os.environ.get("POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


_postgres_up = False


def _postgres_available() -> bool:
    """Whether PostgreSQL answers (asked until it once does, then taken as so)."""
    global _postgres_up
    if _postgres_up:
        return True
    import asyncpg

    async def probe() -> bool:
        try:
            conn = await asyncpg.connect(POSTGRES_URL, timeout=3)
        except (TimeoutError, OSError, asyncpg.PostgresError):
            return False
        await conn.close()
        return True

    _postgres_up = run_async(probe())
    return _postgres_up


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A fresh, empty database of each kind the suite runs on."""
    with fresh_database(request.param, tmp_path) as url:
        yield url


@contextlib.contextmanager
def fresh_database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh, empty database of ``kind`` ("sqlite": a file in ``folder``;
    "postgres": a database of its own, emptied afterwards for another test)."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{folder}/krypkasino.db"
        return
    yield from _fresh_postgres()


@pytest.fixture
def second_database_url(database_url: str, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Another fresh, empty database of the same kind as ``database_url`` (to restore
    a backup into, say)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{tmp_path}/second.db"
        return
    yield from _fresh_postgres()


@pytest.fixture
def second_postgres_url() -> Iterator[str]:
    """Another fresh, empty PostgreSQL database, beside ``postgres_url``."""
    yield from _fresh_postgres()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (for what SQLite cannot do: several processes)."""
    yield from _fresh_postgres()


def _fresh_postgres() -> Iterator[str]:
    require_service(_postgres_available(), f"PostgreSQL not reachable at {POSTGRES_URL}")
    yield from POSTGRES.fresh()


POSTGRES = PostgresDatabases(POSTGRES_URL, run_async)
"""This test process's PostgreSQL databases, emptied and lent again (tests/databases.py)."""


def pytest_sessionfinish() -> None:
    """Wait for the servers fixtures stopped without waiting (tests/server/process.py),
    then drop the spare databases."""
    process = sys.modules.get("tests.server.process")
    if process is not None:
        process.end_stopping(wait=True)
    POSTGRES.drop_spares()


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Where a room service keeps its rooms: ``"memory"`` (app/rooms/memory.py), or a
    fresh, empty database of each kind (for ``open_store``)."""
    if request.param == "memory":
        yield "memory"
    elif request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/krypkasino.db"
    else:
        yield from _fresh_postgres()


@contextlib.asynccontextmanager
async def open_store(url: str) -> AsyncIterator[Any]:
    """The room store at ``url`` (``store_url``): a MemoryStore, or the repository on
    that database, migrated; closed (writer and engine) on the way out.  Several
    stores opened on one database are several processes' views of it."""
    from app.db.migrate import upgrade
    from app.db.repository import RoomRepository
    from app.db.session import make_engine, make_sessionmaker, make_writer
    from app.rooms.memory import MemoryStore

    if url == "memory":
        yield MemoryStore()
        return
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    try:
        yield repo
    finally:
        if repo.writer is not None:
            repo.writer.close()
        await engine.dispose()
