"""The client under the server's Content-Security-Policy, caching and compression, as
Chromium sees them: a room created, a deal played by clicks over the WebSocket, the
language switched (a catalog fetched), and not one violation reported."""

from __future__ import annotations

from typing import Any

import pytest

from tests import fetch
from tests.browser.driver import Player, create_room

pytestmark = pytest.mark.browser


def test_a_deal_under_the_csp_reports_no_violation(new_page, server) -> None:
    page = new_page()
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    create_room(page, "Ann", players=2, bots=1, rules=("single_pack",))
    me = Player(page)
    assert me.wait_view()["status"] == "playing"
    assert me.state()["conn"] == "live", "the WebSocket connected under connect-src"
    me.play_until_summary()
    page.select_option(".lang-switch select", "sv")
    page.wait_for_function("() => document.documentElement.lang === 'sv'")

    assert page.evaluate("() => window.__cspViolations || []") == []
    assert page.csp_reports == [] and not page.errors

    # The policy really was in force on the documents the browser loaded ...
    documents = [r for r in responses if r.request.resource_type == "document"]
    assert documents and all(
        "script-src 'self'" in r.headers["content-security-policy"] for r in documents
    )
    # ... and the browser got every script, style and catalog versioned, immutable and
    # gzipped (the catalogs too, fetched relative to the versioned i18n.js).
    assets = [
        r
        for r in responses
        if r.request.resource_type in ("script", "stylesheet", "fetch") and "/static/" in r.url
    ]
    kinds = {r.request.resource_type for r in assets}
    assert kinds == {"script", "stylesheet", "fetch"}, kinds
    for r in assets:
        assert r.status == 200, r.url
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable", r.url
        assert r.headers.get("content-encoding") == "gzip", r.url
    assert any(r.url.endswith("/i18n/sv.json") for r in assets)


def test_the_footer_shows_the_servers_version(new_page, server) -> None:
    page = new_page()
    page.goto("/")
    version = fetch.get(server.url + "/healthz").json()["version"]
    footer = page.locator("[data-testid=footer]")
    assert footer.inner_text() == f"Krypkasino Online {version}"
