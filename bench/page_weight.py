"""Page weight benchmark (not a test): what Chromium transfers to show the lobby.

    .venv/bin/python bench/page_weight.py                 # starts a server on a temp SQLite
    .venv/bin/python bench/page_weight.py --url http://127.0.0.1:8000

Loads ``/`` in a fresh browser profile until the lobby's form is on screen, and sums
what the network delivered (Chrome DevTools Protocol ``encodedDataLength``: bodies as
sent, so compressed where the server compressed, plus response headers) and the
bodies' decoded sizes. Then loads the page again in the same profile: a repeat visit,
where the browser's cache answers for what it may keep (a request answered from the
cache delivers 0 bytes over the network; a 304 delivers its headers).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/db.sqlite",
        "LOG_LEVEL": "warning",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def _load(page: Any, cdp: Any, url: str) -> dict[str, int]:
    """Bytes on the wire and decoded, and the number of requests, for one visit."""
    sizes: dict[str, int] = {}
    decoded: dict[str, int] = {}
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    cdp.on(
        "Network.dataReceived",
        lambda e: decoded.__setitem__(
            e["requestId"], decoded.get(e["requestId"], 0) + e["dataLength"]
        ),
    )
    page.goto(url + "/")
    page.wait_for_selector("[data-testid=create-form]")
    page.wait_for_load_state("networkidle")
    return {
        "requests": len(sizes),
        "network": sum(1 for n in sizes.values() if n),
        "wire": sum(sizes.values()),
        "decoded": sum(decoded.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc = None
        url = args.url
        if url is None:
            proc, url = _start_server(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
                )
                context = browser.new_context()
                for visit in ("first visit", "repeat visit"):
                    page = context.new_page()
                    cdp = context.new_cdp_session(page)
                    cdp.send("Network.enable")
                    r = _load(page, cdp, url.rstrip("/"))
                    print(
                        f"{visit}: {r['requests']} requests ({r['network']} over the network), "
                        f"{r['wire'] / 1000:.1f} KB on the wire, "
                        f"{r['decoded'] / 1000:.1f} KB of content"
                    )
                    page.close()
                browser.close()
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)


if __name__ == "__main__":
    main()
