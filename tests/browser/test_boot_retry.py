"""The page starts even when a module of the client could not be fetched the first
time (static/js/bootwatch.js): Chromium drops the requests in flight when the
machine's network changes (net::ERR_NETWORK_CHANGED, seen in the suite's own loaded
runs while the Docker tests started containers), and a failed module import leaves
the page blank until it is reloaded.  Here the first fetch of a module is aborted:
the page reloads itself and starts.  Aborted every time, it stops after three
reloads and says so."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

MODULE = "**/js/ui/words.js"


def test_a_module_lost_on_the_first_load_is_fetched_again_and_the_page_starts(new_page) -> None:
    page: Any = new_page()
    failed: list[str] = []

    def once(route: Any) -> None:
        if not failed:
            failed.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(MODULE, once)
    page.goto("/")
    page.wait_for_function("() => window.__krypkasino !== undefined")
    page.wait_for_selector("[data-testid=play-now]")
    assert len(failed) == 1
    assert page.evaluate("() => sessionStorage.getItem('krypkasino-boot-reloads')") is None


@pytest.mark.parametrize(
    ("locale", "said"), [("en-GB", "could not load"), ("sv-SE", "kunde inte laddas")]
)
def test_a_module_that_never_comes_ends_in_a_message_not_a_loop(
    new_page, locale: str, said: str
) -> None:
    page: Any = new_page(locale=locale)
    aborted: list[str] = []

    def always(route: Any) -> None:
        aborted.append(route.request.url)
        route.abort("internetdisconnected")

    page.route(MODULE, always)
    page.goto("/")
    # asked on every frame, reloads included: between two pages there is no #app yet
    page.wait_for_function(
        "(said) => (document.getElementById('app')?.textContent ?? '').includes(said)",
        arg=said,
    )
    assert len(aborted) == 4, "the first load and three reloads"
    assert page.evaluate("() => window.__krypkasino") is None


def test_a_read_lost_once_is_asked_again(new_page) -> None:
    """A GET the network dropped is sent again (static/js/api.js): the lobby's rule
    catalogue, aborted once, still fills the form; a write is never sent twice."""
    page: Any = new_page()
    seen: list[str] = []

    def once(route: Any) -> None:
        seen.append(route.request.method)
        if len(seen) == 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/api/rules", once)
    with page.expect_response("**/api/rules") as answered:  # the one sent again
        page.goto("/")
    assert answered.value.ok
    assert seen == ["GET", "GET"], seen
