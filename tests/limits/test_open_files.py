"""app/limits/files.py: the soft open-files limit goes up to the hard one.  Run in a
child process whose soft limit was lowered, so this process keeps its own."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PROBE = (
    "from app.limits.files import raise_open_files_limit; import resource; "
    "print(*raise_open_files_limit(), *resource.getrlimit(resource.RLIMIT_NOFILE))"
)


def test_the_soft_limit_is_raised_to_the_hard_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 64:
        pytest.skip(f"the hard limit ({hard}) leaves nothing to raise")
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard)),
    )
    before, now, reported_hard, soft, actual_hard = map(int, out.stdout.split())
    assert before == 64 and reported_hard == actual_hard == hard
    assert now == soft and (soft == hard or hard == resource.RLIM_INFINITY) and soft > 64


def test_a_soft_limit_already_at_the_hard_limit_is_left_alone() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    before, now, _, soft, _ = map(int, out.stdout.split())
    assert before <= now == soft
