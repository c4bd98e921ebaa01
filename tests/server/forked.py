"""The test side of tests/server/forkserver.py: servers forked from a process that has
already imported the app, behind the part of ``subprocess.Popen`` the tests use.

A test worker starts one fork server the first time it needs a server and keeps it;
``KK_TEST_FORK=0`` makes every server a plain ``subprocess.Popen`` of the same command
again (to rule the fork server out when a test misbehaves)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

_lock = threading.Lock()
_server: subprocess.Popen[bytes] | None = None


def enabled() -> bool:
    return os.environ.get("KK_TEST_FORK", "1") != "0"


def _ask(request: dict[str, Any]) -> dict[str, Any]:
    """One request to this worker's fork server (started on first use)."""
    global _server
    with _lock:
        if _server is None or _server.poll() is not None:
            _server = subprocess.Popen(
                [sys.executable, "-m", "tests.server.forkserver"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        assert _server.stdin is not None and _server.stdout is not None
        _server.stdin.write(json.dumps(request).encode() + b"\n")
        _server.stdin.flush()
        line = _server.stdout.readline()
        if not line:
            raise RuntimeError("the test fork server ended")
        answer: dict[str, Any] = json.loads(line)
        return answer


class ForkedProcess:
    """A server forked by the fork server: its pid, and poll/wait/signals as Popen has
    them (the exit code comes from the fork server, which is its parent)."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        cwd: Path,
        log: Path | None,
        outputs: tuple[Path, Path] | None = None,
    ):
        module = argv[1:3] == ["-m", "app.cli"]
        args = argv[3:] if module else argv[1:]
        request: dict[str, Any] = {"op": "start", "argv": argv, "args": args, "env": env}
        request.update(cwd=str(cwd), log=str(log) if log else None)
        if outputs is not None:  # stdout and stderr apart, as ``capture_output`` has them
            request.update(stdout=str(outputs[0]), stderr=str(outputs[1]))
        self.args = argv
        answer = _ask(request)
        self.pid: int = answer["pid"]
        self._id: int = answer["id"]
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = _ask({"op": "status", "id": self._id})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def start_server(
    argv: list[str], env: dict[str, str], log: Path | None
) -> subprocess.Popen[bytes] | ForkedProcess:
    """``argv`` (a ``krypkasino serve`` command) run with ``env`` in the project's folder,
    its output to ``log``: forked from the fork server, or as a plain process."""
    if enabled():
        return ForkedProcess(argv, env, ROOT, log)
    out: Any = open(log, "ab") if log else subprocess.DEVNULL
    try:
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=out)
    finally:
        if log:
            out.close()


def run_command(
    args: list[str], env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run([python, -m, app.cli, *args], capture_output=True, text=True)``
    in the project's folder, forked from the fork server (a command spends most of its
    second importing the app), or run as a plain process."""
    argv = [sys.executable, "-m", "app.cli", *args]
    if not enabled():
        return subprocess.run(
            argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
    with tempfile.TemporaryDirectory(prefix="kk-command-") as folder:
        out, err = Path(folder) / "stdout", Path(folder) / "stderr"
        proc = ForkedProcess(argv, env, ROOT, None, (out, err))
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
            raise

        def text(path: Path) -> str:
            return path.read_text() if path.exists() else ""

        return subprocess.CompletedProcess(argv, code, text(out), text(err))
