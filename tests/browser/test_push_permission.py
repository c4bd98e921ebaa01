"""The notification permission flow of Web Push (issue 32): the settings panel's "Notify
me with the page closed" toggle (static/js/push.js).

What a headless Chromium lets a test check for real, and how:

- The browser's permission question.  Playwright's contexts start with notifications
  either granted (``permissions=["notifications"]``) or denied (no permission given):
  never "not asked yet", and no prompt is ever shown.  An init script therefore makes
  ``Notification.permission`` read "default" until the page asks, and records each
  call of ``Notification.requestPermission`` (on which page, and whether it came with a
  user gesture: ``navigator.userActivation.isActive``) before handing it to the real
  one, whose answer (the context's grant or denial) the page then gets.
- The subscription.  ``PushManager.prototype.subscribe`` is wrapped only to count its
  calls; the real one runs.  Playwright's contexts are incognito, where Chromium has no
  push service (it says so on the console: crbug.com/41124656), so a granted
  permission meets a subscription that fails at once: the toggle must say why and stay
  off, and the server keeps no subscription.  In a persistent profile Debian's Chromium
  has no push service to reach either, and there ``subscribe`` never answers: the page
  gives up after ``PUSH_ANSWER_MS`` and says so (the last test).  That the server sends
  a real, encrypted push to a subscription is tested against a local push service in
  tests/notify.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, DESKTOP, PHONE, Server
from tests.browser.driver import Player, create_room
from tests.browser.test_looks import shoot
from tests.browser.waits import WAIT_MS
from tests.server.process import sql

pytestmark = pytest.mark.browser

RECORD_PERMISSION = """(() => {
  const real = Notification.requestPermission.bind(Notification);
  let answered = null;
  window.__asks = [];
  Object.defineProperty(Notification, 'permission', {
    configurable: true, get: () => answered || 'default' });
  Notification.requestPermission = async () => {
    window.__asks.push({ page: location.pathname,
      gesture: navigator.userActivation ? navigator.userActivation.isActive : null });
    answered = await real();
    return answered;
  };
  window.__subscribes = 0;
  if (typeof PushManager === 'function') {
    const subscribe = PushManager.prototype.subscribe;
    PushManager.prototype.subscribe = function (...args) {
      window.__subscribes += 1;
      return subscribe.apply(this, args);
    };
  }
})();"""


def push_page(new_page: Any, granted: bool, viewport: dict[str, int] = DESKTOP) -> Any:
    page = new_page(
        viewport,
        permissions=["notifications"] if granted else [],
        service_workers="allow",  # push needs the service worker
    )
    page.add_init_script(RECORD_PERMISSION)
    return page


def asks(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("window.__asks")
    return result


def push_box(page: Any) -> Any:
    return page.locator("[data-setting=push] input[type=checkbox]")


def push_words(page: Any) -> str:
    text: str = page.locator("[data-setting=push]").inner_text()
    return text


def saved_push(page: Any) -> Any:
    return page.evaluate("(JSON.parse(localStorage.getItem('krypkasino.settings')) || {}).push")


def open_settings(page: Any) -> None:
    page.click("[data-testid=open-settings]")
    page.wait_for_selector("[data-setting=push] input")


def subscriptions(server: Server) -> int:
    return int(sql(server.database_url, "SELECT count(*) FROM push_subscriptions")[0][0])


def test_nothing_asks_on_page_load_and_a_granted_permission_meets_a_browser_without_push(
    new_page, server, screenshots: Path
) -> None:
    page = push_page(new_page, granted=True)
    before = subscriptions(server)
    # The lobby, a room (with its turn alerts) and the settings panel: nothing asks.
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    create_room(page, "Ann", players=2, bots=1)
    Player(page).wait_ready()
    open_settings(page)
    assert asks(page) == [] and page.evaluate("window.__subscribes") == 0
    assert page.evaluate("Notification.permission") == "default"
    assert not push_box(page).is_checked()
    assert push_box(page).is_enabled(), "a browser with the Push API may try"

    push_box(page).click()
    # The question came from the click, once; the browser said yes; the page then tried
    # to subscribe, which this browser cannot, and says so.
    page.wait_for_function("() => window.__subscribes === 1")
    page.wait_for_function(
        "() => document.querySelector('[data-setting=push]').innerText.includes('could not subscribe')"
    )
    assert asks(page) == [{"page": page.evaluate("location.pathname"), "gesture": True}]
    assert page.evaluate("Notification.permission") == "granted"
    assert not push_box(page).is_checked()
    assert push_box(page).is_enabled(), "the player may try again"
    assert saved_push(page) is False
    assert "push service" in push_words(page)
    assert subscriptions(server) == before
    shoot(page, screenshots, "desktop-push-no-service")
    assert not page.errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_denied_permission_leaves_the_toggle_off_and_says_why(
    new_page, server, screenshots: Path, size: str
) -> None:
    page = push_page(new_page, granted=False, viewport=PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    open_settings(page)
    assert asks(page) == []
    push_box(page).click()
    page.wait_for_function("() => window.__asks.length === 1")
    page.wait_for_function(
        "() => document.querySelector('[data-setting=push]').innerText.includes('does not allow')"
    )
    assert asks(page) == [{"page": "/", "gesture": True}]
    assert page.evaluate("Notification.permission") == "denied"
    assert not push_box(page).is_checked()
    assert saved_push(page) is False
    assert page.evaluate("window.__subscribes") == 0, "no subscription without a permission"
    page.locator("[data-setting=push]").scroll_into_view_if_needed()
    shoot(page, screenshots, f"{size}-push-denied")
    # Asked again, the browser's "no" stands: the page does not ask a second time.
    push_box(page).click()
    page.wait_for_function("() => !document.querySelector('[data-setting=push] input').disabled")
    assert len(asks(page)) == 1
    assert not push_box(page).is_checked()
    assert not page.errors


def test_a_server_without_web_push_is_named_once_the_browser_said_yes(
    new_page, tmp_path: Path
) -> None:
    quiet = Server(tmp_path, env={"PUSH": "false"})
    try:
        page = push_page(new_page, granted=True)
        page.goto(quiet.url + "/")
        page.wait_for_selector("[data-testid=play-now]")
        open_settings(page)
        push_box(page).click()
        page.wait_for_function(
            "() => document.querySelector('[data-setting=push]').innerText.includes('does not send')"
        )
        assert [a["gesture"] for a in asks(page)] == [True]
        assert page.evaluate("window.__subscribes") == 0
        assert not push_box(page).is_checked()
        assert saved_push(page) is False
        assert not page.errors
    finally:
        quiet.stop()


def push_answer_ms() -> int:
    """static/js/push.js's wait for the browser's push service."""
    text = (Path(__file__).parents[2] / "static" / "js" / "push.js").read_text()
    return int(text.split("PUSH_ANSWER_MS = ", 1)[1].split(";", 1)[0])


def test_a_push_service_that_never_answers_is_given_up_on_and_named(
    playwright, chromium: Path, server, tmp_path: Path, screenshots: Path
) -> None:
    # A persistent profile (not incognito): Chromium tries its push service and, with
    # none to reach, never answers the subscription.  The toggle must not stay asking.
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(chromium),
        args=CHROMIUM_ARGS,
        base_url=server.url,
        viewport=DESKTOP,
        locale="en-GB",
        permissions=["notifications"],
        service_workers="allow",
    )
    try:
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(RECORD_PERMISSION)
        before = subscriptions(server)
        page.goto("/")
        page.wait_for_selector("[data-testid=play-now]")
        open_settings(page)
        push_box(page).click()
        page.wait_for_function("() => window.__subscribes === 1")
        assert push_box(page).is_disabled(), "asking: the toggle waits for the answer"
        page.wait_for_function(
            "() => document.querySelector('[data-setting=push]').innerText.includes('did not answer')",
            timeout=push_answer_ms() + 15000,
        )
        assert not push_box(page).is_checked()
        assert push_box(page).is_enabled(), "the player may try again"
        assert saved_push(page) is False
        assert subscriptions(server) == before
        shoot(page, screenshots, "desktop-push-no-answer")
        assert not errors
    finally:
        context.close()
