"""The browsers' shield from the machine's network changes (tests/browser/no_netlink.c).

Chromium drops every request in flight with ``net::ERR_NETWORK_CHANGED`` when an
interface of the machine changes; the Docker tests beside the browser tests add and
remove one with every container, and a page losing one of its modules that way stays
blank.  The browsers of the suite run with a small library preloaded that refuses
Chromium the socket it watches interfaces through, so it never sees the change
(tests/browser/test_network_changes.py shows both: a plain Chromium dropping requests
while interfaces change, and the suite's not).

The library is compiled once per worker from its C source with the machine's C
compiler.  Without one the browsers run plain (the page's own reload,
static/js/bootwatch.js, still recovers); under CI=true a missing compiler fails the
run, as the shield is part of what makes the suite deterministic there."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SOURCE = Path(__file__).with_name("no_netlink.c")


def build_shield(folder: Path) -> Path | None:
    """The compiled library in ``folder``; None when no C compiler is found (outside CI)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        if os.environ.get("CI") == "true":
            raise RuntimeError(
                "no C compiler (cc) for tests/browser/no_netlink.c; apt-get install gcc"
            )
        return None
    built = folder / "no_netlink.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(SOURCE), "-ldl"],
        check=True,
        capture_output=True,
    )
    return built


def shielded_env(library: Path | None) -> dict[str, str]:
    """The browser's environment: this process's, with ``library`` preloaded."""
    env = dict(os.environ)
    if library is not None:
        env["LD_PRELOAD"] = " ".join(filter(None, [str(library), env.get("LD_PRELOAD")]))
    return env
