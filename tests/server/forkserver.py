"""A process that imports the server once and then forks each test's server from itself.

Starting ``python -m app.cli serve`` spends about 1.3 s of CPU importing FastAPI,
SQLAlchemy and the app before it reads a setting; the suite starts some four hundred
servers, on two cores. Forked from this process, a server skips those imports and
nothing else: the child sets its own environment, arguments, working directory and
log, then runs the very ``app.cli.main`` the command runs (settings are read only
then: ``get_settings`` is first called inside ``serve``).

It talks over its stdin and stdout, one JSON object a line:

- ``{"op": "start", "argv": [...], "args": [...], "env": {...}, "cwd": "...",
  "log": path or null}`` (``args``: the command's own, after the program) answers
  ``{"pid": N}``;
- ``{"op": "status", "pid": N}`` answers ``{"returncode": code or null}`` (null while
  it runs; a signal's death is minus the signal, as ``subprocess`` says it).

It reaps its children as they end and exits when its stdin closes (the test worker is
gone). tests/server/process.py's ``ForkedProcess`` is the test side.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
from typing import Any, NoReturn


def preload() -> None:
    """Everything ``serve`` imports, so that a forked child imports nothing much."""
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


def child(request: dict[str, Any]) -> NoReturn:
    """In the forked child: become the server the request describes."""
    code = 1
    try:
        log = request.get("log")
        out = os.open(log or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(out, 1)
        os.dup2(out, 2)
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
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # the traceback goes to the server's log, as it would
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 (a closed log: nothing left to say)
                pass
    os._exit(code)


def serve() -> None:
    preload()
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
