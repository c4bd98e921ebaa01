"""The fork server the tests start their servers from (tests/server/forkserver.py)
behaves as the command does: the same exit code for a bad setting, the log, a signal's
death reported as ``subprocess`` reports it, and a healthy server otherwise."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.server.forked import ForkedProcess
from tests.server.process import TEST_LIMITS, free_port
from tests.waiting import wait_healthy


def command(port: int) -> list[str]:
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


def settings(tmp_path: Path, **extra: str) -> dict[str, str]:
    url = f"sqlite+aiosqlite:///{tmp_path}/db.sqlite"
    return {**os.environ, **TEST_LIMITS, "DATABASE_URL": url, "LOG_LEVEL": "warning", **extra}


def test_a_bad_setting_ends_both_the_same_way_and_says_why_in_the_log(tmp_path: Path) -> None:
    env = settings(tmp_path, GC_THRESHOLDS="not numbers")
    plain = subprocess.run(command(free_port()), cwd=ROOT, env=env, capture_output=True, timeout=60)
    forked = ForkedProcess(command(free_port()), env, ROOT, tmp_path / "forked.log")
    assert plain.returncode != 0
    assert forked.wait(60) == plain.returncode
    assert "GC_THRESHOLDS" in (tmp_path / "forked.log").read_text()
    assert "GC_THRESHOLDS" in plain.stderr.decode() + plain.stdout.decode()


def test_a_forked_server_serves_and_its_kill_is_reported_as_popen_reports_it(
    tmp_path: Path,
) -> None:
    port = free_port()
    proc = ForkedProcess(command(port), settings(tmp_path), ROOT, tmp_path / "server.log")
    wait_healthy(f"http://127.0.0.1:{port}", proc, tmp_path / "server.log")
    assert proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(10) == -signal.SIGKILL
    proc.send_signal(signal.SIGTERM)  # a process already gone: nothing to signal
    assert proc.poll() == -signal.SIGKILL
