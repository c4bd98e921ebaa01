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
from tests.server.forked import ForkedProcess, run_command
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


def test_a_forked_command_answers_as_the_plain_command_does(tmp_path: Path) -> None:
    """``krypkasino`` as the tests run it (tests/server/process.py) is forked too: the
    same exit code, standard output and standard error as the command's own process,
    for a database migrated, then found up to date, a room not found and a bad command."""
    plain_db, forked_db = tmp_path / "plain", tmp_path / "forked"
    plain_db.mkdir()
    forked_db.mkdir()
    codes = []
    for args in (["migrate"], ["migrate"], ["rooms", "show", "nosuchroom"], ["no-such-cmd"]):
        plain = subprocess.run(
            [sys.executable, "-m", "app.cli", *args],
            cwd=ROOT,
            env=settings(plain_db),
            capture_output=True,
            text=True,
            timeout=60,
        )
        forked = run_command(args, settings(forked_db), 60)

        def there(text: str) -> str:
            return text.replace(str(plain_db), str(forked_db))

        same = (plain.returncode, there(plain.stdout), there(plain.stderr))
        assert (forked.returncode, forked.stdout, forked.stderr) == same, args
        codes.append(plain.returncode)
    assert codes[:2] == [0, 0] and codes[2] != 0 and codes[3] == 2, codes
