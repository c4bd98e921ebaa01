"""A rematch offered and accepted, not imposed (issue 33), by two people in Chromium:
an offer declined, an offer nobody answers until it lapses, and an offer accepted,
after which both screens close the final scores and say that match 2 begins.  Ann is
at a desktop, Bo on a phone; screenshots of each step go to the test artefacts.

The server here keeps an offer open for REMATCH_TIMEOUT seconds (shortened), so the
lapse is seen without waiting two minutes."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.conftest import CSP_LISTENER, DESKTOP, PHONE, Server, is_csp_report
from tests.browser.driver import Player, create_room, play_together, press
from tests.browser.test_looks import shoot
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

TIMEOUT = 10
"""Seconds an offer stays open on this test's server."""


@pytest.fixture(scope="module")
def quick_server(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("rematch-server"), env={"REMATCH_TIMEOUT": str(TIMEOUT)})
    yield srv
    srv.stop()


@pytest.fixture
def quick_page(browser: Any, quick_server: Server) -> Iterator[Callable[..., Any]]:
    """Pages on ``quick_server``, each in its own context (one person each), as
    ``new_page`` makes them on the suite's server."""
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(viewport: dict[str, int]) -> Any:
        ctx = browser.new_context(
            viewport=viewport, base_url=quick_server.url, locale="en-GB", reduced_motion="reduce"
        )
        ctx.set_default_timeout(WAIT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.csp_reports = []
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


def _finished_match(make: Callable[..., Any]) -> tuple[Any, Any]:
    """Ann (desktop) and Bo (phone) play a one-deal match to its end."""
    ann = make(DESKTOP)
    create_room(ann, "Ann", players=2, bots=0, rules=("single_pack",), match_deals=1)
    ann.wait_for_selector("[data-testid=waiting-room]")
    code = ann.locator("[data-testid=room-code]").inner_text()
    bo = make(PHONE)
    bo.goto("/")
    bo.fill("[data-testid=join-code]", code.lower())
    press(bo, "[data-testid=join-by-code]")
    bo.wait_for_selector("[data-testid=join-form]")
    bo.fill("#join-name", "Bo")
    bo.click("[data-testid=take-seat]")
    players = [Player(ann), Player(bo)]
    for p in players:
        p.page.wait_for_function("() => window.__krypkasino.store.get().view?.status === 'playing'")
    play_together(players)
    for page in (ann, bo):
        page.wait_for_function("() => window.__krypkasino.store.get().view.status === 'finished'")
        page.wait_for_selector("[data-testid=deal-summary] [data-testid=rematch]")
    return ann, bo


def _text(page: Any, testid: str) -> str:
    return page.locator(f"[data-testid={testid}]").inner_text()


def test_rematch_offer_decline_lapse_and_acceptance(quick_page, screenshots):
    ann, bo = _finished_match(quick_page)

    # Ann offers: she waits for Bo; Bo is asked, with the offer's countdown.
    ann.click("[data-testid=rematch]")
    ann.wait_for_selector("[data-testid=rematch-offer]")
    assert _text(ann, "rematch-who") == "You offered a rematch"
    assert _text(ann, "rematch-waiting") == "Waiting for the others (1 of 2)"
    bo.wait_for_selector("[data-testid=rematch-offer]")
    assert _text(bo, "rematch-who") == "Ann offers a rematch"
    assert re.fullmatch(r"Open for 0:\d\d", _text(bo, "rematch-countdown"))
    assert bo.locator("[data-testid=rematch-accept]").is_visible()
    assert Player(bo).view["status"] == "finished", "nothing started on Ann's word"
    shoot(ann, screenshots, "rematch-desktop-offered")
    shoot(bo, screenshots, "rematch-phone-asked")

    # Bo declines: both are told, and nothing starts.
    bo.click("[data-testid=rematch-decline]")
    for page, line in ((ann, "Bo declined the rematch"), (bo, "You declined the rematch")):
        page.wait_for_selector("[data-testid=rematch-ended]")
        assert _text(page, "rematch-ended") == line
        assert not page.locator("[data-testid=rematch-offer]").count()
    assert Player(ann).view["match_no"] == 1
    shoot(ann, screenshots, "rematch-desktop-declined")

    # Bo has closed the final scores; he offers from under the table, nobody answers,
    # and the offer lapses on both screens.
    bo.click("[data-testid=close-summary]")
    assert not bo.locator("[data-testid=deal-summary]").count()
    bo.click("[data-testid=rematch]")
    bo.wait_for_selector("[data-testid=rematch-offer]")
    ann.wait_for_selector("[data-testid=rematch-offer][data-by='1']")
    assert _text(ann, "rematch-who") == "Bo offers a rematch"
    shoot(bo, screenshots, "rematch-phone-offered-from-the-table")
    for page in (ann, bo):
        page.wait_for_selector("[data-testid=rematch-ended]", timeout=(TIMEOUT + 20) * 1000)
        assert _text(page, "rematch-ended") == "The rematch offer lapsed: nobody answered in time"
    shoot(ann, screenshots, "rematch-desktop-lapsed")

    # Ann offers again and Bo accepts: match 2 begins on both screens, whose final
    # scores close by themselves.
    ann.click("[data-testid=rematch]")
    bo.wait_for_selector("[data-testid=rematch-accept]")
    bo.click("[data-testid=rematch-accept]")
    for page in (ann, bo):
        page.wait_for_selector("[data-testid=match-begins]")
        assert _text(page, "match-begins").startswith("Match 2 begins")
        page.wait_for_function(
            "() => { const v = window.__krypkasino.store.get().view;"
            " return v.status === 'playing' && v.match_no === 2 && v.rematch === null; }"
        )
        assert not page.locator("[data-testid=deal-summary]").count()
    shoot(ann, screenshots, "rematch-desktop-match-2-begins")
    shoot(bo, screenshots, "rematch-phone-match-2-begins")
    for page in (ann, bo):
        assert not page.errors
