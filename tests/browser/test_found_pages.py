"""Issue 33, "everything else found", off the table, in Chromium: an unknown address
shows the client's "not found" page (status 404), the create form remembers its last
choices, a phone's lobby opens on Play now, joining by code and creating, and the
settings' notification box shows what is saved, with every box and dot on its label.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import open_create_form
from tests.browser.test_looks import axe_problems, shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("size", "lang", "title"),
    [("phone", "sv", "Sidan finns inte"), ("desktop", "en", "Page not found")],
)
def test_an_unknown_address_shows_the_not_found_page(
    new_page, server, screenshots, size, lang, title
):
    page = new_page(
        PHONE if size == "phone" else DESKTOP, locale="sv-SE" if lang == "sv" else "en-GB"
    )
    response = page.goto("/some/unknown/page")
    assert response is not None and response.status == 404
    page.wait_for_selector("[data-testid=not-found]")
    assert page.locator("[data-testid=not-found] h1").inner_text() == title
    shoot(page, screenshots, f"{size}-not-found-{lang}")
    assert axe_problems(page) == []
    page.click("[data-testid=not-found-lobby]")
    page.wait_for_selector("[data-testid=play-now]")
    assert page.url == f"{server.url}/"
    # A program asking the same address keeps the JSON answer.
    r = fetch.get(f"{server.url}/some/unknown/page")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert not page.errors


def form_choices(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => ({
        players: document.querySelector('input[name=players]:checked').value,
        bots: document.querySelector('#create-bots').value,
        level: document.querySelector('#create-bot-level').value,
        pace: document.querySelector('#create-bot-pace').value,
        clock: document.querySelector('#create-clock').value,
        single_pack: document.querySelector('input[name=single_pack]').checked,
        public: document.querySelector('[data-testid=create-public]').checked,
        deals: document.querySelectorAll('input[name=length]')[1].checked,
        match_deals: document.querySelector('.match-length input[type=number]').value,
    })""")


def test_the_create_form_remembers_the_last_choices(new_page) -> None:
    page = new_page(DESKTOP)
    page.goto("/")
    open_create_form(page)
    page.wait_for_selector("input[name=single_pack]")
    first = form_choices(page)
    assert (first["players"], first["bots"], first["single_pack"]) == ("4", "3", False)
    page.fill("#create-name", "Ann")
    page.check("input[name=players][value='2']")
    page.select_option("#create-bots", "0")
    page.select_option("#create-clock", "45")
    page.check("[data-testid=create-public]")
    page.check("input[name=single_pack]")
    page.locator("input[name=length]").nth(1).check()
    page.locator(".match-length input[type=number]").first.fill("2")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    page.goto("/")
    open_create_form(page)
    page.wait_for_selector("input[name=single_pack]")
    assert form_choices(page) == {
        "players": "2",
        "bots": "0",
        "level": "greedy",
        "pace": "normal",
        "clock": "45",
        "single_pack": True,
        "public": True,
        "deals": True,
        "match_deals": "2",
    }
    assert page.input_value("#create-name") == "Ann"
    # What a browser remembers wrongly (an old version, a hand edit) falls back.
    page.evaluate(
        "localStorage.setItem('krypkasino.create', JSON.stringify({players: 9, bots: 'x', pace: 'toString'}))"
    )
    page.reload()
    open_create_form(page)
    page.wait_for_selector("input[name=single_pack]")
    again = form_choices(page)
    assert (again["players"], again["bots"], again["pace"]) == ("4", "3", "normal")
    assert not page.errors


FIRST_SCREEN_JS = """(ids) => ids.map((sel) => {
    const el = document.querySelector(sel);
    if (!el) return [sel, null];
    const r = el.getBoundingClientRect();
    return [sel, r.height > 0 && r.bottom <= window.innerHeight && r.top >= 0];
})"""


def test_a_phones_lobby_opens_on_play_now_join_and_create(new_page, screenshots) -> None:
    page = new_page(PHONE)
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    shown = dict(
        page.evaluate(
            FIRST_SCREEN_JS,
            [
                "[data-testid=play-now]",
                "[data-testid=join-code]",
                "[data-testid=join-by-code]",
                "[data-testid=create-toggle]",
            ],
        )
    )
    assert all(shown.values()), f"on the first screen: {shown}"
    assert not page.locator("[data-testid=create-form]").is_visible()
    toggle = page.locator("[data-testid=create-toggle]")
    assert toggle.get_attribute("aria-expanded") == "false"
    shoot(page, screenshots, "phone-lobby-first-screen")
    assert axe_problems(page) == []
    toggle.click()
    page.wait_for_selector("[data-testid=create-form]")
    assert toggle.get_attribute("aria-expanded") == "true"
    page.locator("#create-name").scroll_into_view_if_needed()
    shoot(page, screenshots, "phone-lobby-create-open")
    # On a desktop the form is simply there, and no button folds it.
    wide = new_page(DESKTOP)
    wide.goto("/")
    wide.wait_for_selector("[data-testid=create-form]")
    assert not wide.locator("[data-testid=create-toggle]").is_visible()
    for p in (page, wide):
        assert not p.errors


# The browser's permission question, held open until the test answers it (a headless
# Chromium answers at once and shows nothing, unlike a person's browser).
PENDING_PERMISSION = """(() => {
  let state = 'default';
  Object.defineProperty(Notification, 'permission', { get: () => state, configurable: true });
  Notification.requestPermission = () => new Promise((resolve) => {
    window.__answer = (a) => { state = a; resolve(a); };
  });
})();"""


def notify_box(page: Any) -> Any:
    return page.locator("[data-setting=notify] input[type=checkbox]")


def saved_notify(page: Any) -> Any:
    return page.evaluate("(JSON.parse(localStorage.getItem('krypkasino.settings')) || {}).notify")


def test_the_notification_box_shows_what_is_saved(new_page, screenshots) -> None:
    page = new_page(DESKTOP)
    page.add_init_script(PENDING_PERMISSION)
    page.goto("/")
    page.click("[data-testid=open-settings]")
    notify_box(page).click()
    page.wait_for_function("() => typeof window.__answer === 'function'")
    # The browser is asking: nothing is saved yet, and the box says so.
    assert not notify_box(page).is_checked()
    assert saved_notify(page) in (None, False)
    assert "Waiting for your browser" in page.locator("[data-setting=notify]").inner_text()
    page.evaluate("window.__answer('granted')")
    page.wait_for_function("() => document.querySelector('[data-setting=notify] input').checked")
    assert saved_notify(page) is True
    assert not page.errors

    # Saved on, but the browser no longer allows notifications: the box is not ticked.
    other = new_page(DESKTOP, permissions=[])  # no permission given: Chromium denies
    other.goto("/")
    other.evaluate("localStorage.setItem('krypkasino.settings', JSON.stringify({notify: true}))")
    other.reload()
    other.click("[data-testid=open-settings]")
    other.wait_for_selector("[data-setting=notify] input")
    assert other.evaluate("Notification.permission") == "denied"
    assert not notify_box(other).is_checked()
    assert "does not allow" in other.locator("[data-setting=notify]").inner_text()
    assert not other.errors


# Each box or dot beside its words: its middle within 3 px of the middle of the words'
# first line, and a gap of 3 to 16 px between them.
ALIGNMENT_JS = """(scope) => [...document.querySelectorAll(scope + ' input[type=checkbox], ' + scope + ' input[type=radio]')]
  .filter((box) => box.getClientRects().length && getComputedStyle(box).opacity !== '0')  // not the segmented buttons' own
  .map((box) => {
    const label = box.closest('label');
    const range = document.createRange();
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT,
      { acceptNode: (n) => n.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT });
    const text = walker.nextNode();
    range.selectNodeContents(text);
    const line = range.getClientRects()[0];
    const b = box.getBoundingClientRect();
    return { name: box.name + ':' + box.value, dy: Math.abs((b.top + b.bottom) / 2 - (line.top + line.bottom) / 2),
             gap: line.left - b.right };
  })"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_boxes_and_dots_sit_on_their_labels(new_page, screenshots, size) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    open_create_form(page)
    page.wait_for_selector("input[name=single_pack]")
    for scope in ("[data-testid=create-form]", ""):
        if not scope:
            page.click("[data-testid=open-settings]")
            page.wait_for_selector("[data-testid=settings]")
            scope = "[data-testid=settings]"
        boxes = page.evaluate(ALIGNMENT_JS, scope)
        assert len(boxes) >= 5, boxes
        off = [b for b in boxes if b["dy"] > 3 or not 3 <= b["gap"] <= 16]
        assert not off, f"off their labels in {scope}: {off}"
    shoot(page, screenshots, f"{size}-settings-aligned")
    assert not page.errors
