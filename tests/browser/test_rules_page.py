"""The rules page (/rules): every section and drawn example in all six languages, no
sideways scrolling on a 360 px phone, reachable from the lobby, the table and the hint
badges under playable cards, and no serious accessibility problem."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.conftest import DESKTOP
from tests.browser.driver import Player, create_room
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.test_table_fit import LANGS, NARROW, OVERFLOW_JS, set_language
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

RULES_JS = (ROOT / "static" / "js" / "ui" / "rules.js").read_text(encoding="utf-8")
SECTION_IDS = re.findall(r'\{ id: "(\w+)", examples:', RULES_JS)


def test_the_rules_page_renders_in_every_language_without_sideways_scrolling(
    new_page, screenshots
) -> None:
    page = new_page(NARROW)
    page.goto("/rules")
    page.wait_for_selector("[data-testid=rules-page]")
    for lang in LANGS:
        set_language(page, lang)
        texts = json.loads((ROOT / "static" / "rules" / f"{lang}.json").read_text("utf-8"))
        page.wait_for_function(
            "(t) => document.querySelector('h1').textContent === t", arg=texts["title"]
        )
        ids = page.locator("[data-testid=rule-section]").evaluate_all("els => els.map(e => e.id)")
        assert ids == SECTION_IDS
        examples = page.locator("[data-testid=rule-example]").evaluate_all(
            "els => els.map(e => e.dataset.example)"
        )
        assert sorted(examples) == sorted(texts["examples"]), lang
        assert page.evaluate(OVERFLOW_JS, "[data-testid=rules-page]") == [], lang
        # Drawn with the table's cards, each one named for screen readers.
        assert page.locator("#ex-forced .card-svg[role=img]").count() == 4
        first = page.locator("#ex-forced [role=listitem] .card-svg").first
        assert first.get_attribute("aria-label")
        shoot(page, screenshots, f"phone-rules-{lang}")
        if lang in ("en", "sv"):
            assert axe_problems(page) == [], lang
    page.emulate_media(color_scheme="dark")
    assert axe_problems(page) == []


def test_the_rules_are_linked_from_the_lobby_the_table_and_the_hint_badges(
    new_page, screenshots
) -> None:
    page = new_page(DESKTOP)
    page.goto("/")
    page.click("[data-testid=lobby-rules]")
    page.wait_for_selector("[data-testid=rules-page]")
    assert page.url.endswith("/rules")
    shoot(page, screenshots, "desktop-rules-light")
    assert axe_problems(page) == []
    # At the table: a link beside the history, and one under each playable card.
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_view()
    me.wait_ready()
    assert page.get_attribute("[data-testid=open-rules]", "href") == "/rules"
    badges = page.locator("[data-testid=hint-badge]")
    assert badges.count() >= 1
    hrefs = set(badges.evaluate_all("els => els.map(e => e.getAttribute('href'))"))
    assert hrefs <= {"/rules#play", "/rules#maximal", "/rules#sweep", "/rules#double"}, hrefs
    with page.context.expect_page() as opened:
        badges.first.click()
    rules = opened.value
    rules.wait_for_selector("[data-testid=rules-page]")
    anchor = (badges.first.get_attribute("href") or "").split("#")[1]
    rules.wait_for_function(
        """(id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return r.top < innerHeight && r.bottom > 0; }""",
        arg=anchor,
    )
    assert not page.errors


def test_the_rules_page_names_its_tab(new_page) -> None:
    page = new_page(DESKTOP)
    page.goto("/rules")
    page.wait_for_selector("[data-testid=rules-page]")
    assert page.title() == "How to play Krypkasino — Krypkasino"
    page.click(".brand")
    page.wait_for_selector("[data-testid=create-form]")
    assert page.title() == "Krypkasino"
