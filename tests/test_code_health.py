"""Code health runs with the tests, so CI fails on it: ruff's lint rules and its
formatting over the whole project, and mypy, strict over the whole of ``app/``
(see pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CHECKED = ["app", "tests", "bench", "migrations", "setup.py"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_to_report() -> None:
    out = run(str(BIN / "ruff"), "check", *CHECKED)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_code_is_formatted_as_ruff_formats_it() -> None:
    out = run(str(BIN / "ruff"), "format", "--check", *CHECKED)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_passes_strict_over_the_whole_app() -> None:
    out = run(sys.executable, "-m", "mypy")
    assert out.returncode == 0, out.stdout + out.stderr
