"""Browser test fixtures: a real server, Debian's Chromium driven by Playwright.

The server is ``krypkasino serve`` on a free port with its own SQLite file.
Chromium is /usr/bin/chromium (Playwright's own browser builds are not
downloaded); without it these tests skip, and fail under CI=true.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx
import pytest

from tests.conftest import ROOT, require_service

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1440, "height": 900}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_command(port: int) -> list[str]:
    script = Path(sys.executable).parent / "krypkasino"
    if script.exists():
        return [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


class Server:
    """One ``krypkasino serve`` process on a temporary SQLite database."""

    def __init__(self, tmp: Path, env: dict[str, str] | None = None) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.database_url = f"sqlite+aiosqlite:///{tmp / 'db.sqlite'}"
        env = {**os.environ, **(env or {})}
        env.update({"DATABASE_URL": self.database_url,
                    "LOG_LEVEL": "warning", "DEFAULT_BOT_DELAY": "0"})
        self._out = open(self.log, "ab")
        self.proc = subprocess.Popen(_serve_command(self.port), cwd=ROOT, env=env,
                                     stdout=self._out, stderr=self._out)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not become healthy")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._out.close()


@pytest.fixture(scope="session")
def chromium() -> Path:
    require_service(CHROMIUM.exists(), f"{CHROMIUM} not found (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def server(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("browser-server"))
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """Make pages in fresh browser contexts (separate storage: separate people)."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int] | None = None, **kwargs: Any) -> Any:
        kwargs.setdefault("locale", "en-GB")
        kwargs.setdefault("reduced_motion", "reduce")  # no waiting for CSS transitions
        ctx = browser.new_context(viewport=viewport or DESKTOP, base_url=server.url, **kwargs)
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []  # uncaught page errors, checked by the tests
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def node_path() -> str | None:
    return shutil.which("node")
