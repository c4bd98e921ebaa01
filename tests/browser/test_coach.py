"""The coach in Chromium: the end-of-deal summary links to "see how you played", and
the replay shows each play's label and loss beside it, the best move drawn with
why it is better and the likely continuation (issue 47), the best move in hindsight and each seat's summary; the page updates by itself while
the analysis is made.  Screenshots: desktop and phone."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.driver import Player, create_room
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.waits import WAIT_MS
from tests.server.harness import WAITS_FOR_ANALYSES


@pytest.fixture
def coach_server(chromium: Path, tmp_path: Path) -> Iterator[Server]:
    """A server whose coach samples few worlds (the plumbing is tested, not the ratings)."""
    srv = Server(
        tmp_path, env={"COACH_SAMPLES": "2", "COACH_ON_DEAL_END": "true", **WAITS_FOR_ANALYSES}
    )
    yield srv
    srv.stop()


def page_at(browser: Any, server: Server, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(
        viewport=viewport, base_url=server.url, locale="en-GB", reduced_motion="reduce"
    )
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def shown_percent(odds: float) -> str:
    """Odds as the page writes them: JavaScript's ``Math.round``, which rounds a half
    up (Python's ``round`` takes a half to the even number: 12.5 -> 12, where the page
    shows 13%)."""
    return f"{math.floor(odds * 100 + 0.5)}%"


def shown_points(x: float) -> str:
    """Points as the English page writes them (coach.js ``points``: two decimals at
    most, a true minus sign)."""
    text = f"{abs(x):.2f}".rstrip("0").rstrip(".")
    return f"\u2212{text}" if x < 0 and text != "0" else text


def test_see_how_you_played_marks_every_labelled_play_and_draws_the_best_move(
    browser: Any, coach_server: Server, screenshots: Path
) -> None:
    page = page_at(browser, coach_server, DESKTOP)
    create_room(page, players=2, bots=1, rules=("single_pack",), match_deals=1)
    me = Player(page)
    me.wait_view()
    me.play_until_summary(prefer_creep=False)
    link = page.locator("[data-testid=deal-summary] [data-testid=coach-link]")
    assert link.inner_text() == "See how you played"
    shoot(page, screenshots, "desktop-summary-coach-link")
    href = link.get_attribute("href")
    assert href is not None and href.endswith("/replay/1/1")
    room_id = href.split("/")[2]

    page.goto(href)  # the analysis may still be made: the page shows it once it is
    page.wait_for_selector("[data-testid=coach-panel]", timeout=120000)
    analysis = fetch.get(
        f"{coach_server.url}/api/rooms/{room_id}/matches/1/deals/1/analysis", timeout=10
    ).json()
    assert analysis["status"] == "done"
    labelled = [p for p in analysis["plays"] if p["label"] != "none"]
    marks = page.locator("[data-testid=move-item] [data-testid=coach-mark]")
    assert marks.count() == len(labelled)
    for mark, play in zip(marks.all(), labelled, strict=True):
        assert mark.get_attribute("data-label") == play["label"]
    seats = page.locator("[data-testid=coach-seats] tbody tr")
    assert seats.count() == 2

    # A play whose best move was another: its verdict draws that move.
    worst = max(analysis["plays"], key=lambda p: p["loss"])
    page.locator(f"[data-testid=move-item][data-step='{worst['index'] + 1}']").click()
    verdict = page.locator("[data-testid=coach-verdict]")
    assert verdict.get_attribute("data-label") == worst["label"]
    assert worst["loss"] > 0, "a whole deal against the strong bot loses points somewhere"
    best = page.locator("[data-testid=coach-best]")
    assert best.get_attribute("data-card") == worst["best"]["card"]
    # the card and what it takes, each drawn
    assert best.locator("svg.card-svg").count() == 1 + len(worst["best"]["take"])
    # and why (issue 47): the consequence with its figures, and the likely continuation
    why = worst["why"]
    shown = verdict.locator("[data-testid=coach-why]")
    assert shown.get_attribute("data-part") == why["part"]
    reason = shown.locator("[data-testid=coach-reason]").inner_text()
    assert shown_points(why["played"]["points"]) in reason, reason
    assert shown_points(why["best"]["points"]) in reason, reason
    if why["part"] in ("sweeps", "conceded", "award"):
        assert shown_percent(why["played"]["odds"]) in reason, reason
    steps = shown.locator("[data-testid=coach-line-step]")
    assert steps.count() == len(why["line"]) > 0
    for step, want in zip(steps.all(), why["line"], strict=True):
        assert step.get_attribute("data-card") == want["card"]
        assert step.inner_text().endswith(f"({shown_percent(want['odds'])})")
    verdict.screenshot(path=str(screenshots / "desktop-coach-why.png"))
    assert "every card known" in page.locator("[data-testid=coach-hindsight]").inner_text()
    shoot(page, screenshots, "desktop-replay-coach")
    problems = axe_problems(page)

    phone = page_at(browser, coach_server, PHONE)
    phone.goto(f"{href}?step={worst['index'] + 1}")
    phone.wait_for_selector("[data-testid=coach-verdict]")
    phone.locator("[data-testid=coach-panel]").scroll_into_view_if_needed()
    shoot(phone, screenshots, "phone-replay-coach")
    problems += axe_problems(phone)
    assert not problems, problems
    assert not page.errors and not phone.errors
