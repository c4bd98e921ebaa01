"""Browser test fixtures: a real server, Debian's Chromium driven by Playwright.

The server is ``krypkasino serve`` on a free port with its own SQLite file.
Chromium is /usr/bin/chromium (Playwright's own browser builds are not
downloaded); without it these tests skip, and fail under CI=true.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import WAIT_MS
from tests.conftest import ROOT, require_service
from tests.server.forked import start_server
from tests.server.harness import TEST_LIMITS, free_port
from tests.waiting import wait_healthy

from .netlink import build_shield, shielded_env
from .watch import WATCHES, watched

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,"
    "TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,"
    "PreconnectToSearch"
)
"""The features Playwright's own ``--disable-features`` turns off (its
chromiumSwitches): a second ``--disable-features`` replaces the first, so ours
repeats them."""

UNSEEN_BROWSER_UI = "WebUIOmniboxPopup,WebUIOmniboxAimPopup"
"""The address bar's suggestion popups, which Chromium 156 draws as web pages of its
own and makes ready in two renderer processes for every new window, so for every
browser context a test opens, though a headless window never shows them.  Turned
off, a context with its page costs 0.4 s of CPU instead of 1 s (measured here, 20
contexts, two pairs); the suite opens hundreds."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    f"--disable-features={PLAYWRIGHT_DISABLED_FEATURES},{UNSEEN_BROWSER_UI}",
]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1440, "height": 900}


def _serve_command(port: int) -> list[str]:
    script = Path(sys.executable).parent / "krypkasino"
    if script.exists():
        return [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


class Server:
    """One ``krypkasino serve`` process on a temporary SQLite database (or the one given)."""

    def __init__(
        self, tmp: Path, env: dict[str, str] | None = None, database_url: str | None = None
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.database_url = database_url or f"sqlite+aiosqlite:///{tmp / 'db.sqlite'}"
        # Every page signs up from 127.0.0.1, and one worker's pages share this server:
        # the per-address limit on new accounts (tested in tests/server/test_accounts.py)
        # would refuse the eleventh, depending on how tests fall to workers.
        env = {**os.environ, **TEST_LIMITS, "REGISTER_PER_HOUR": "0", **(env or {})}
        env.update(
            {"DATABASE_URL": self.database_url, "LOG_LEVEL": "warning", "DEFAULT_BOT_DELAY": "0"}
        )
        env.setdefault("DEFAULT_DEAL_PAUSE", "0")  # tests that want a pause ask for one
        self.proc = start_server(_serve_command(self.port), env, self.log)
        try:
            wait_healthy(self.url, self.proc, self.log)
        except RuntimeError:
            self.stop()
            raise

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


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
def playwright(chromium: Path) -> Iterator[Any]:
    """The session's Playwright driver (one per process: the sync API allows no second)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def network_shield(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The library that keeps the browsers blind to the machine's network changes
    (tests/browser/netlink.py), or None without a C compiler."""
    return build_shield(tmp_path_factory.mktemp("netlink"))


@pytest.fixture(scope="session")
def browser(playwright: Any, chromium: Path, network_shield: Path | None) -> Iterator[Any]:
    b = playwright.chromium.launch(
        executable_path=str(chromium), args=CHROMIUM_ARGS, env=shielded_env(network_shield)
    )
    yield watched(b)
    b.close()


CONTEXTS_BEFORE = pytest.StashKey[int]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[CONTEXTS_BEFORE] = len(WATCHES)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing browser test's report ends with what each browser context it made was
    still waiting for (tests/browser/watch.py)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call":
        now = time.monotonic()
        made = WATCHES[item.stash.get(CONTEXTS_BEFORE, len(WATCHES)) :]
        text = "\n".join(w.report(now) for w in made) or "(no context)"
        report.sections.append(("browser contexts: pending requests and console", text))


CSP_LISTENER = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.__cspViolations = window.__cspViolations || []).push(
    `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});"""
"""Records the page's Content-Security-Policy violations (an init script: CSP does not
apply to it). Chromium also reports each one on the console, which survives navigation."""


def is_csp_report(text: str) -> bool:
    return "Content Security Policy" in text or "Content-Security-Policy" in text


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """Make pages in fresh browser contexts (separate storage: separate people).

    Every page runs under the server's Content-Security-Policy; a violation reported on
    any page's console fails the test that made it (at teardown).
    """
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(viewport: dict[str, int] | None = None, **kwargs: Any) -> Any:
        kwargs.setdefault("locale", "en-GB")
        kwargs.setdefault("reduced_motion", "reduce")  # no waiting for CSS transitions
        # page.route() does not see what a service worker fetches: tests that stub an
        # answer need it off; tests/browser/test_installable.py turns it on.
        kwargs.setdefault("service_workers", "block")
        ctx = browser.new_context(viewport=viewport or DESKTOP, base_url=server.url, **kwargs)
        # Waits end on the event they wait for; the bound only ends a failing test, so
        # it allows for a machine busy well beyond one core (three 15 s waits ran out
        # at a load average of 20, each on a page that did come).
        ctx.set_default_timeout(WAIT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []  # uncaught page errors, checked by the tests
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.csp_reports = []  # console reports of CSP violations
        page.on(
            "console", lambda msg: is_csp_report(msg.text) and page.csp_reports.append(msg.text)
        )
        page.add_init_script(CSP_LISTENER)
        pages.append(page)
        return page

    yield make
    violations = [report for page in pages for report in page.csp_reports]
    for ctx in contexts:
        ctx.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def node_path() -> str | None:
    return shutil.which("node")
