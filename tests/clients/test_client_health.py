"""The Python client is held to the server's code health (tests/test_code_health.py
checks app/, tests/, bench/ and migrations/, not clients/): ruff's rules and format,
and mypy strict over the package and its examples, as its py.typed promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.clients.paths import CLIENT, CLIENT_SRC, EXAMPLES, ROOT

BIN = Path(sys.executable).parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_to_report_in_the_client() -> None:
    out = run(str(BIN / "ruff"), "check", str(CLIENT))
    assert out.returncode == 0, out.stdout + out.stderr
    out = run(str(BIN / "ruff"), "format", "--check", str(CLIENT))
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_passes_strict_over_the_client_and_its_examples() -> None:
    out = run(sys.executable, "-m", "mypy", "--strict", str(CLIENT_SRC), str(EXAMPLES))
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_package_declares_what_it_is() -> None:
    """One runtime dependency, the version the code reports, typed."""
    import tomllib

    from krypkasino_client import __version__

    project = tomllib.loads((CLIENT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "krypkasino-client"
    assert project["version"] == __version__
    assert [d.split(">")[0] for d in project["dependencies"]] == ["websockets"]
    assert (CLIENT_SRC / "krypkasino_client" / "py.typed").exists()
