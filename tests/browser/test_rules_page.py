"""The rules page (/rules): every section and drawn example in all six languages, no
sideways scrolling on a 360 px phone, reachable from the lobby, the table and the hint
badges under playable cards, and no serious accessibility problem.  The variants'
sections, the player counts they allow and the opening deals come from the server's
catalogue (GET /api/rules, app/engine/facts.py): served another, the page shows that."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from app.engine.facts import packet_sizes, rules_catalogue
from tests.browser.conftest import DESKTOP
from tests.browser.driver import Player, create_room, press
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.test_table_fit import LANGS, NARROW, OVERFLOW_JS, set_language
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

RULES_JS = (ROOT / "static" / "js" / "ui" / "rules.js").read_text(encoding="utf-8")
CATALOGUE = rules_catalogue()
SECTION_IDS = re.findall(r'\{ id: "(\w+)", examples:', RULES_JS) + [
    v["section"] for v in CATALOGUE["variants"]
]


def deal_rows(page: Any, section: str) -> list[list[str]]:
    return page.locator(f"#{section} [data-testid=deal-table] tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent))"
    )


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
        assert ids == SECTION_IDS and SECTION_IDS[-1] == "v10"
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
    press(page, "[data-testid=lobby-rules]")
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


def test_the_variants_and_the_deals_are_the_servers(new_page) -> None:
    page = new_page(DESKTOP)
    page.goto("/rules")
    page.wait_for_selector("#v10")
    # R2.2 as the engine deals it, and V7's short last packet (7 x 12 + 4 for 3 players)
    standard = deal_rows(page, "deal")
    assert [r[:3] for r in standard] == [
        [str(d["players"]), str(d["hand"]), str(d["table"])] for d in CATALOGUE["deals"]
    ]
    assert standard[2] == ["4", "5", "4", "5 × 16"]
    assert deal_rows(page, "v7")[1] == ["3", "4", "4", "7 × 12 + 4"]
    assert deal_rows(page, "v2") == [["2", "4", "4", "5 × 8"]]
    assert page.locator("#v3 [data-testid=deal-table]").count() == 0, "V3 deals as standard"
    facts = page.locator("#v7 [data-testid=variant-facts]").inner_text()
    assert re.fullmatch(r"For 2, 3,? and 4 players\.", facts), facts
    assert page.locator("#v3 [data-testid=variant-facts]").count() == 0
    assert not page.errors


def test_a_different_catalogue_makes_a_different_page(new_page) -> None:
    """The page holds no copy of these facts: served a catalogue whose V7 is for 2 and 3
    players only, with another deal, and without V10, it shows just that."""
    other = json.loads(json.dumps(CATALOGUE))
    other["variants"] = [v for v in other["variants"] if v["variant"] != "V10"]
    v7 = next(v for v in other["variants"] if v["variant"] == "V7")
    v7["players"] = [2, 3]
    v7["deals"] = [
        dict(d, hand=3, packets=list(packet_sizes(d["players"], 89))) for d in v7["deals"][:2]
    ]
    other["deals"][1] = dict(other["deals"][1], hand=9, table=7)
    page = new_page(DESKTOP)
    page.route("**/api/rules", lambda route: route.fulfill(json=other))
    page.goto("/rules")
    page.wait_for_selector("#v9")
    ids = page.locator("[data-testid=rule-section]").evaluate_all("els => els.map(e => e.id)")
    assert ids == SECTION_IDS[:-1]
    assert deal_rows(page, "deal")[1] == ["3", "9", "7", "7 × 12"]
    assert deal_rows(page, "v7") == [["2", "3", "4", "11 × 8 + 1"], ["3", "3", "4", "7 × 12 + 5"]]
    assert page.locator("#v7 [data-testid=variant-facts]").inner_text() == "For 2 and 3 players."
    assert page.locator(".rules-toc a[href='#v10']").count() == 0
    assert not page.errors
