"""Turn alerts in a hidden tab and the settings panel (issue 12).

The tab is made hidden the way the page sees it: document.visibilityState and
document.hidden report "hidden" and a visibilitychange event fires, as when the
player switches to another tab.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import Player, create_room
from tests.browser.test_looks import axe_problems, shoot

pytestmark = pytest.mark.browser

SET_VISIBILITY_JS = """(state) => {
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def open_settings(page: Any) -> Any:
    page.click("[data-testid=open-settings]")
    return page.wait_for_selector("[data-testid=settings]")


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"[data-setting={name}] input[value={value}]").check()


def test_the_title_changes_when_the_turn_comes_in_a_hidden_tab(new_page) -> None:
    page = new_page(DESKTOP)
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_view()
    open_settings(page)
    page.locator("[data-setting=sound] input").check()  # plays the tone once, as a sample
    page.click("[data-testid=settings-close]")
    tones = page.evaluate("() => window.__krypkasino.alerts.tones")
    assert tones == 1
    me.wait_ready()
    title = page.title()
    assert title == "(1) Krypkasino"  # the room's title flags her turn (issue 47)
    page.evaluate(SET_VISIBILITY_JS, "hidden")
    me.play_turn(prefer_creep=True)  # the bot answers at once: the turn comes back while hidden
    page.wait_for_function("() => document.title.includes('Your turn')")
    assert page.evaluate("() => window.__krypkasino.alerts.tones") == tones + 1
    page.evaluate(SET_VISIBILITY_JS, "visible")
    page.wait_for_function("(t) => document.title === t", arg=title)
    # A turn that comes while the tab is seen changes nothing.
    me.wait_ready()
    me.play_turn(prefer_creep=True)
    if me.wait_ready() == "turn":
        assert page.title() == title
        assert page.evaluate("() => window.__krypkasino.alerts.tones") == tones + 1
    assert not page.errors


def background(page: Any, selector: str) -> str:
    return page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor")


def test_a_notification_comes_with_the_turn_when_the_player_allowed_it(new_page) -> None:
    page = new_page(DESKTOP, permissions=["notifications"])
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_view()
    open_settings(page)
    page.locator("[data-setting=notify] input").check()
    page.wait_for_function("() => JSON.parse(localStorage['krypkasino.settings']).notify === true")
    page.click("[data-testid=settings-close]")
    me.wait_ready()
    page.evaluate(SET_VISIBILITY_JS, "hidden")
    me.play_turn(prefer_creep=True)
    page.wait_for_function("() => window.__krypkasino.alerts.notifications === 1")
    assert page.evaluate("() => window.__krypkasino.alerts.tones") == 0, "sound is off"
    assert not page.errors


DARK_BG = "rgb(29, 35, 32)"  # --panel in the dark theme
BLUE = "rgb(27, 95, 184)"  # --blue-suit


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_settings_take_effect_and_last_over_a_reload(new_page, screenshots, size) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.emulate_media(color_scheme="light")
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    open_settings(page)
    shoot(page, screenshots, f"{size}-settings-light")
    assert axe_problems(page) == []
    sample = "[data-testid=suit-sample] .card-svg.s-D"
    red = page.eval_on_selector(sample, "e => getComputedStyle(e).fill")
    choose(page, "theme", "dark")
    choose(page, "suits", "four")
    choose(page, "back", "blue")
    choose(page, "anim", "off")
    assert page.eval_on_selector(sample, "e => getComputedStyle(e).fill") == BLUE != red
    assert background(page, "[data-testid=settings]") == DARK_BG
    shoot(page, screenshots, f"{size}-settings-dark")
    assert axe_problems(page) == []
    page.reload()
    page.wait_for_selector("[data-testid=play-now]")
    attrs = page.evaluate("() => ({...document.documentElement.dataset})")
    assert attrs == {"theme": "dark", "suits": "four", "back": "blue", "anim": "off"}
    assert background(page, ".panel") == DARK_BG
    open_settings(page)
    assert page.locator("[data-setting=suits] input[value=four]").is_checked()
    assert page.eval_on_selector(
        "[data-testid=suit-sample] .card-svg.back .back-field", "e => getComputedStyle(e).fill"
    ).startswith("url(")
    # Light overrides a dark system setting too.
    page.emulate_media(color_scheme="dark")
    choose(page, "theme", "light")
    assert background(page, ".panel") == "rgb(251, 249, 244)"
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=settings]").count() == 0
    assert not page.errors


ANIMATION_JS = """() => {
    let li = document.querySelector('#probe li');
    if (!li) {
        const box = document.createElement('ul');
        box.id = 'probe';
        box.className = 'table-cards';
        box.appendChild(document.createElement('li'));
        document.body.appendChild(box);
        li = box.firstChild;
    }
    const cs = getComputedStyle(li);
    return [cs.animationName, cs.animationDuration];
}"""


def test_the_animation_speed_setting_times_the_animations(new_page) -> None:
    page = new_page(DESKTOP, reduced_motion="no-preference")
    page.goto("/")
    page.wait_for_selector("[data-testid=create-form]")
    assert page.evaluate(ANIMATION_JS) == ["card-in", "0.18s"]
    open_settings(page)
    choose(page, "anim", "fast")
    name, duration = page.evaluate(ANIMATION_JS)
    assert name == "card-in" and float(duration.rstrip("s")) < 0.1
    choose(page, "anim", "off")
    assert page.evaluate(ANIMATION_JS)[0] == "none"
    # The system's reduced-motion preference turns them off whatever the setting.
    choose(page, "anim", "normal")
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(ANIMATION_JS)[0] == "none"
