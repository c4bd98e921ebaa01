"""The tutorial (/tutorial) can be completed: each step waits for its card (another card
is refused with a word of why), the bot answers, the deal ends with the scores the
engine computed (tests/engine/test_tutorial_script.py), and a real game is offered."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.test_table_fit import OVERFLOW_JS
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

SCRIPT = json.loads((ROOT / "static" / "tutorial" / "tutorial.json").read_text(encoding="utf-8"))
STEPS = [m for m in SCRIPT["moves"] if m["seat"] == 0]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_tutorial_can_be_completed_and_offers_a_real_game(new_page, screenshots, size) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    page.click("[data-testid=lobby-tutorial]")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=creep]")
    shoot(page, screenshots, f"{size}-tutorial-light")
    assert axe_problems(page) == []
    if size == "phone":
        assert page.evaluate(OVERFLOW_JS, "#main") == []
    for i, step in enumerate(STEPS):
        page.wait_for_selector(f"[data-testid=tutorial-step][data-step={step['step']}]")
        hand = page.locator("[data-testid=hand] button.card-btn")
        if step["step"] == "ace":  # the bot's sweep emptied the hands: a packet, shown on the felt
            assert "New packet" in page.locator("[data-testid=new-packet]").inner_text()
        if i == 0:
            wrong = [c for c in SCRIPT["hands"][0] if c != step["card"]][0]
            page.locator(f'[data-testid=hand] button[data-card="{wrong}"]').click(force=True)
            assert "Not in this step" in page.locator("[data-testid=tutorial-note]").inner_text()
        assert hand.count() >= 1
        page.locator(f'[data-testid=hand] li.legal button[data-card="{step["card"]}"]').click()
        if step["step"] == "forced":
            shoot(page, screenshots, f"{size}-tutorial-forced")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=done]")
    totals = page.locator("[data-testid=breakdown] tbody td.strong").all_text_contents()
    stated = [s["total"] for s in SCRIPT["end"]["scores"]]
    assert [int(x.replace("\u2212", "-")) for x in totals] == stated
    assert "✓" in page.locator("[data-testid=points-check]").inner_text()
    log = page.locator("[data-testid=log] li").all_text_contents()
    assert len(log) == len(SCRIPT["moves"]) + 1, "every play and the one packet"
    assert page.locator("[data-testid=log-packet]").count() == 1
    shoot(page, screenshots, f"{size}-tutorial-done")
    assert axe_problems(page) == []
    page.fill("#tutorial-name", "Ann")
    page.click("[data-testid=tutorial-real-game]")
    page.wait_for_url("**/r/*")
    page.wait_for_function("""() => { const v = window.__krypkasino.store.get().view;
                                      return v && v.status === 'playing'; }""")
    assert not page.errors
