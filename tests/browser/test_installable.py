"""The client as an installable app (issue 32): a web app manifest with real icons, and
a service worker that shows an offline page while the server cannot be reached.

The outage is real: the browser reaches the server through a TCP proxy the test stops
(as an unplugged server would look) and starts again; the offline page must come back
to the game by itself.
"""

from __future__ import annotations

import struct
from typing import Any

import httpx
import pytest

from tests.browser.conftest import DESKTOP, Server
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

PNG = b"\x89PNG\r\n\x1a\n"


def png_size(body: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (the first one, by the format)."""
    assert body[:8] == PNG and body[12:16] == b"IHDR", "not a PNG"
    return struct.unpack(">II", body[16:24])


def test_the_manifest_names_the_app_and_its_icons_are_real_pngs_of_their_sizes(
    new_page: Any, server: Server
) -> None:
    page = new_page()
    page.goto("/")
    href = page.eval_on_selector("link[rel=manifest]", "el => el.href")
    res = httpx.get(href)
    assert res.headers["content-type"].startswith("application/manifest+json")
    manifest = res.json()
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone" and manifest["name"] == "Krypkasino Online"
    pngs = [i for i in manifest["icons"] if i["type"] == "image/png"]
    purposes = {i["purpose"] for i in pngs}
    assert {"any", "maskable"} <= purposes
    sizes = set()
    for icon in pngs:
        body = httpx.get(httpx.URL(href).join(icon["src"])).content
        w, h = png_size(body)
        assert f"{w}x{h}" == icon["sizes"], icon
        sizes.add(w)
    assert {192, 512} <= sizes, "installable: a 192 and a 512 px icon"


@pytest.mark.parametrize(
    ("locale", "title"),
    [("en-GB", "The server cannot be reached"), ("sv-SE", "Servern går inte att nå")],
)
def test_the_offline_page_shows_while_the_server_is_away_and_leaves_by_itself(
    browser: Any, tmp_path: Any, screenshots: Any, locale: str, title: str
) -> None:
    from tests.server.proxy import TcpProxy

    server = Server(tmp_path)
    proxy = TcpProxy("127.0.0.1", server.port).start()
    url = f"http://127.0.0.1:{proxy.port}"
    ctx = browser.new_context(
        viewport=DESKTOP, base_url=url, locale=locale, service_workers="allow"
    )
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        page.goto("/tutorial")
        page.wait_for_selector("[data-testid=footer]")
        # the worker installs, caches the offline page and takes the page over
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        proxy.stop()
        page.reload()
        page.wait_for_selector("[data-testid=offline-page]")
        assert page.inner_text("h1") == title
        assert page.url == f"{url}/tutorial", "the address stays the one asked for"
        page.screenshot(path=str(screenshots / f"offline-{locale}.png"))
        proxy.start()
        # no click: the page asks the server again by itself and goes back
        page.wait_for_selector("[data-testid=footer]", timeout=WAIT_MS)
        assert page.locator("[data-testid=offline-page]").count() == 0
        assert page.url == f"{url}/tutorial"
    finally:
        ctx.close()
        proxy.stop()
        server.stop()


def test_the_worker_and_the_offline_page_are_served_from_the_root_fresh_each_time(
    server: Server,
) -> None:
    sw = httpx.get(f"{server.url}/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert "no-cache" in sw.headers["cache-control"]
    offline = httpx.get(f"{server.url}/offline")
    assert offline.status_code == 200 and "offline-page" in offline.text
    assert "script-src 'self'" in offline.headers["content-security-policy"]
    # every file the worker keeps for the offline page is there to be kept
    for path in ("/static/css/offline.css", "/static/js/offline.js", "/static/img/icon.svg"):
        assert path in sw.text
        assert httpx.get(f"{server.url}{path}").status_code == 200, path
