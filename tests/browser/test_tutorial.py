"""The tutorial (/tutorial) can be completed: each step waits for its card (another card
is refused with a word of why), the bot answers, the deal ends with the scores the
engine computed, and a real game is offered.  The deal is the server's
(GET /api/tutorial, app/engine/tutorial.py): served another one, the page plays that."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.tutorial import tutorial
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import press
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.test_table_fit import OVERFLOW_JS
from tests.browser.test_tutorial_js import swapped_script

pytestmark = pytest.mark.browser

TUT = tutorial()


def learner_moves(tut: dict[str, Any]) -> list[dict[str, Any]]:
    return [f["move"] for f in tut["frames"][:-1] if f["move"]["seat"] == tut["you"]]


def table_shown(page: Any) -> list[str]:
    return page.locator("[data-testid=table] li").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_tutorial_can_be_completed_and_offers_a_real_game(new_page, screenshots, size) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    press(page, "[data-testid=lobby-tutorial]")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=creep]")
    assert table_shown(page) == TUT["frames"][0]["view"]["table"]
    shoot(page, screenshots, f"{size}-tutorial-light")
    assert axe_problems(page) == []
    if size == "phone":
        assert page.evaluate(OVERFLOW_JS, "#main") == []
    for i, step in enumerate(learner_moves(TUT)):
        page.wait_for_selector(f"[data-testid=tutorial-step][data-step={step['step']}]")
        hand = page.locator("[data-testid=hand] button.card-btn")
        if step["step"] == "ace":  # the bot's sweep emptied the hands: a packet, shown on the felt
            assert "New packet" in page.locator("[data-testid=new-packet]").inner_text()
        if i == 0:
            wrong = [c for c in TUT["frames"][0]["view"]["hand"] if c != step["card"]][0]
            page.locator(f'[data-testid=hand] button[data-card="{wrong}"]').click(force=True)
            assert "Not in this step" in page.locator("[data-testid=tutorial-note]").inner_text()
        assert hand.count() >= 1
        page.locator(f'[data-testid=hand] li.legal button[data-card="{step["card"]}"]').click()
        if step["step"] == "forced":
            shoot(page, screenshots, f"{size}-tutorial-forced")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=done]")
    end = TUT["frames"][-1]["view"]
    totals = page.locator("[data-testid=breakdown] tbody td.strong").all_text_contents()
    assert [int(x.replace("\u2212", "-")) for x in totals] == [s["total"] for s in end["scores"]]
    assert "✓" in page.locator("[data-testid=points-check]").inner_text()
    # The sum row adds up each sweep column (the deal had sweeps: not 0 and 0).
    made = sum(s["sweeps_made_points"] for s in end["scores"])
    conceded = sum(s["sweeps_conceded_points"] for s in end["scores"])
    assert made > 0 > conceded
    assert page.locator("[data-testid=made-sum]").inner_text() == f"+{made}"
    assert page.locator("[data-testid=conceded-sum]").inner_text() == f"\u2212{-conceded}"
    log = page.locator("[data-testid=log] li").all_text_contents()
    assert len(log) == len(end["log"]) + len(end["packets"]), "every play and the one packet"
    assert page.locator("[data-testid=log-packet]").count() == len(end["packets"]) == 1
    shoot(page, screenshots, f"{size}-tutorial-done")
    assert axe_problems(page) == []
    page.fill("#tutorial-name", "Ann")
    page.click("[data-testid=tutorial-real-game]")
    page.wait_for_url("**/r/*")
    page.wait_for_function("""() => { const v = window.__krypkasino.store.get().view;
                                      return v && v.status === 'playing'; }""")
    assert not page.errors


def test_the_tutorial_plays_the_deal_the_server_sends(new_page) -> None:
    """Served a tutorial the page has never seen (the engine's, with hearts and clubs
    swapped), the page shows its cards, its pictures set aside, its packet and its end."""
    other = tutorial(swapped_script())
    page = new_page(DESKTOP)
    page.route("**/api/tutorial", lambda route: route.fulfill(json=other))
    page.goto("/tutorial")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=creep]")
    start = other["frames"][0]["view"]
    assert table_shown(page) == start["table"] != TUT["frames"][0]["view"]["table"]
    assert "KC" in start["set_aside_other"]
    assert page.locator(".set-aside .other .mini").count() == len(start["set_aside_other"])
    hand = page.locator("[data-testid=hand] button.card-btn").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert hand == start["hand"]
    for step in learner_moves(other):
        page.wait_for_selector(f"[data-testid=tutorial-step][data-step={step['step']}]")
        page.locator(f'[data-testid=hand] li.legal button[data-card="{step["card"]}"]').click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step=done]")
    end = other["frames"][-1]["view"]
    assert page.locator("[data-testid=log-packet]").count() == len(end["packets"])
    totals = page.locator("[data-testid=breakdown] tbody td.strong").all_text_contents()
    assert [int(x.replace("\u2212", "-")) for x in totals] == [s["total"] for s in end["scores"]]
    assert not page.errors
