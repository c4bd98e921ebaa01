"""Chromium and the machine's network changes (tests/browser/netlink.py).

While a thread adds and removes pairs of virtual interfaces with addresses (what the
Docker engine does for every container), pages of the client are loaded again and
again.  A plain Chromium drops requests with ``net::ERR_NETWORK_CHANGED`` (the
chance failures of loaded suite runs); the suite's browsers, with the shield
preloaded, lose none and boot the app every time.  Adding interfaces needs root and
the ``ip`` command: skipped without them (CI runs as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, Server
from tests.browser.waits import WAIT_MS
from tests.conftest import require_service

pytestmark = pytest.mark.browser

LOADS = 4
PREFIX = f"kn{os.getpid() % 100000}"
"""This worker's interfaces' names (at most 15 characters with their suffix)."""


def ip(*args: str) -> bool:
    return subprocess.run(["ip", *args], capture_output=True).returncode == 0


def can_change_interfaces() -> bool:
    if shutil.which("ip") is None or os.geteuid() != 0:
        return False
    made = ip("link", "add", f"{PREFIX}ta", "type", "veth", "peer", "name", f"{PREFIX}tb")
    return made and ip("link", "del", f"{PREFIX}ta")


@contextmanager
def interfaces_changing() -> Iterator[list[int]]:
    """A thread adding, raising and removing veth pairs until the block ends; yields
    the count of pairs made so far (one element, updated)."""
    stop = threading.Event()
    made = [0]
    subnet = os.getpid() % 250

    def churn() -> None:
        while not stop.is_set():
            a, b = f"{PREFIX}{made[0] % 2}a", f"{PREFIX}{made[0] % 2}b"
            ip("link", "add", a, "type", "veth", "peer", "name", b)
            ip("addr", "add", f"10.251.{subnet}.{made[0] % 2 + 1}/24", "dev", a)
            ip("link", "set", a, "up")
            ip("link", "set", b, "up")
            ip("link", "del", a)
            made[0] += 1

    thread = threading.Thread(target=churn, daemon=True)
    thread.start()
    try:
        yield made
    finally:
        stop.set()
        thread.join()


def dropped_loading(browser: Any, server: Server, loads: int) -> list[str]:
    """Load the lobby ``loads`` times in fresh contexts: the requests that failed."""
    failed: list[str] = []
    for _ in range(loads):
        ctx = browser.new_context(base_url=server.url, service_workers="block")
        ctx.set_default_timeout(WAIT_MS)
        page = ctx.new_page()
        page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
        try:
            page.goto("/")
            page.wait_for_load_state("networkidle")
        except Exception as exc:  # noqa: BLE001 - a drop shows here too; counted, not raised
            failed.append(f"goto: {exc}")
        ctx.close()
    return failed


def test_the_suites_browsers_never_see_the_network_change(
    playwright: Any, browser: Any, server: Server, chromium: Any, network_shield: Any
) -> None:
    require_service(can_change_interfaces(), "adding network interfaces needs root and ip")
    require_service(network_shield is not None, "no C compiler for the network shield")
    plain = playwright.chromium.launch(
        executable_path=str(chromium),
        args=CHROMIUM_ARGS,
        env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"},
    )
    try:
        with interfaces_changing() as made:
            unshielded = dropped_loading(plain, server, LOADS)
            shielded = dropped_loading(browser, server, LOADS)
            page = browser.new_page(base_url=server.url)
            page.goto("/")
            page.wait_for_selector("[data-testid=play-now]")  # the app booted
            page.context.close()
        assert made[0] > 0
        assert any("ERR_NETWORK_CHANGED" in f for f in unshielded), (
            "a plain Chromium dropped nothing: the churn no longer tests the shield"
        )
        assert shielded == [], shielded[:5]
    finally:
        plain.close()
