"""A process that imports the server once and then forks each test's server from itself.

Starting ``python -m app.cli serve`` spends about 1.3 s of CPU importing FastAPI,
SQLAlchemy and the app before it reads a setting; the suite starts some four hundred
servers, and runs a hundred-odd ``krypkasino`` commands (backup, restore, migrate,
rooms, purge), on two cores. Forked from this process, a server skips those imports and
nothing else: the child sets its own environment, arguments, working directory and
log, then runs the very ``app.cli.main`` the command runs (settings are read only
then: ``get_settings`` is first called inside ``serve``).

It talks over its stdin and stdout, one JSON object a line:

- ``{"op": "start", "argv": [...], "args": [...], "env": {...}, "cwd": "...",
  "log": path or null}`` (``args``: the command's own, after the program; optional
  ``"stdout"`` and ``"stderr"`` paths instead of the one log) answers
  ``{"pid": N, "id": N}``;
- ``{"op": "status", "id": N}`` answers ``{"returncode": code or null}`` (null while
  it runs; a signal's death is minus the signal, as ``subprocess`` says it).

It reaps its children as they end and exits when its stdin closes (the test worker is
gone). tests/server/process.py's ``ForkedProcess`` is the test side.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import sys
from typing import Any, NoReturn

WARM = (
    "aiosqlite",
    "alembic.autogenerate",
    "alembic.command",
    "alembic.operations",
    "alembic.runtime.migration",
    "anyio._backends._asyncio",
    "app.db.backup",
    "app.db.migrate",
    "app.db.pg_archive",
    "app.ops.backups",
    "app.ops.cli",
    "app.bots.tournament",
    "mako.ext.pygmentplugin",
    "mako.template",
    "tarfile",
    "tomllib",
    "uvicorn.loops.auto",
)
"""What a server or a ``krypkasino`` command imports only once it runs (migrations,
the operator's commands, the event loop, the first request): 0.15 s of a server's
start, most of a command's.  A name missing here (a module renamed) only costs that
time again."""


def preload() -> None:
    """Everything ``serve`` and the operator's commands import, so that a forked child
    imports nothing much."""
    import importlib
    import warnings

    with warnings.catch_warnings():  # uvicorn's notice about its websockets protocol
        warnings.simplefilter("ignore", DeprecationWarning)
        import uvicorn.lifespan.on  # noqa: F401
        import uvicorn.loops.asyncio  # noqa: F401

        import app.cli  # noqa: F401
        import app.gc_tuning  # noqa: F401
        import app.limits.files  # noqa: F401
        import app.limits.headers  # noqa: F401
        import app.logs  # noqa: F401
        import app.main  # noqa: F401
        import app.realtime.socket_protocol  # noqa: F401

        for name in WARM:
            try:
                importlib.import_module(name)
            except ImportError:
                pass

    from tests.cheap_hashes import install

    install()  # its servers hash passwords at the suite's cheap parameters


def child(request: dict[str, Any]) -> NoReturn:
    """In the forked child: become the server (or command) the request describes, and
    end as the interpreter would: its exit code, its threads waited for, its logs
    flushed."""
    code = 1
    try:
        log = request.get("log")
        for fd, path in ((1, request.get("stdout", log)), (2, request.get("stderr", log))):
            out = os.open(path or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(out, fd)
            os.close(out)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = list(request["argv"])
        from app.cli import main

        code = main(list(request["args"]))
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:  # sys.exit("message"): the message on stderr, status 1
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:  # the traceback goes to the server's log, as it would
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        _end_as_the_interpreter_does()
    os._exit(code)


def _end_as_the_interpreter_does() -> None:
    """What Python does at exit that ``os._exit`` skips: wait for the threads that are
    not daemons, shut logging down, flush the standard streams."""
    import logging
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    try:
        logging.shutdown()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 (a closed log: nothing left to say)
                pass


def serve() -> None:
    preload()
    # What a server does as it starts (app/gc_tuning.py's tune: collect, then freeze),
    # done once here for what every child inherits: a child's own collection then
    # walks only what it made itself (0.115 s of CPU a start, of about 0.47).
    gc.collect()
    gc.freeze()
    running: dict[int, int] = {}  # pid -> id of the child running under that pid
    ended: dict[int, int] = {}  # id -> exit code
    started = 0
    stdin = sys.stdin.buffer
    buffer = b""
    while True:
        ready, _, _ = select.select([stdin], [], [], 0.05)
        while True:  # reap whatever has ended
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            if pid in running:
                ended[running.pop(pid)] = os.waitstatus_to_exitcode(status)
        if not ready:
            continue
        chunk = os.read(stdin.fileno(), 65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            request = json.loads(line)
            if request["op"] == "start":
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    child(request)
                started += 1
                running[pid] = started
                answer: dict[str, Any] = {"pid": pid, "id": started}
            else:
                answer = {"returncode": ended.get(request["id"])}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    serve()
