"""Accounts in the browser (issue 34): sign up on one device, sign in on another and find
the same games there, sign out; refusals shown in words.  Screenshots go to
test-artifacts/screenshots/, and axe-core finds no serious or critical violation in
the account panel."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Server
from tests.browser.driver import create_room
from tests.browser.test_looks import axe_problems, shoot
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"


def fill_account(page: Any, mode: str, name: str, password: str) -> None:
    """Sign up or in with the keyboard, as a keyboard user does: the lobby's panels
    above the account's (the deal of the day, public rooms, "My games") fill in as
    their answers come and move it down, and a click aimed at a tab before the move
    landed elsewhere (a loaded run waited a minute for the sign-up form)."""
    page.focus(f"[data-testid=account-tab-{mode}]")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-testid=account-form][data-mode={mode}]")
    page.fill("[data-testid=account-username]", name)
    page.fill("[data-testid=account-password]", password)
    page.press("[data-testid=account-password]", "Enter")  # submits the form


def my_rooms(page: Any) -> list[str]:
    page.wait_for_selector("[data-testid=my-games] :is(.games, .hint)")
    return [
        str(el.get_attribute("data-room"))
        for el in page.query_selector_all("[data-testid=my-game]")
    ]


def test_sign_up_then_sign_in_on_another_device_brings_the_games(new_page, screenshots) -> None:
    name = f"Ann_{secrets.token_hex(3)}"
    laptop = new_page()
    create_room(laptop, "Ann", players=2, bots=1)  # played before there was an account
    room_id = laptop.url.rsplit("/", 1)[1]
    laptop.goto("/")
    assert my_rooms(laptop) == [room_id]
    laptop.wait_for_selector("[data-testid=account-form]")
    shoot(laptop, screenshots, "desktop-account-signed-out")

    fill_account(laptop, "register", name, "short")  # refused, in words
    error = laptop.wait_for_selector("[data-testid=account-panel] [data-testid=error]")
    assert "stronger password" in error.text_content()
    shoot(laptop, screenshots, "desktop-account-weak-password")
    fill_account(laptop, "register", name, PASSWORD)
    who = laptop.wait_for_selector("[data-testid=account-name]")
    assert name in who.text_content()
    assert my_rooms(laptop) == [room_id]
    problems = axe_problems(laptop)
    shoot(laptop, screenshots, "desktop-account-signed-in")

    phone = new_page(PHONE)  # another device: its own storage, its own player key
    phone.goto("/")
    assert my_rooms(phone) == []
    fill_account(phone, "login", name, "wrong password")
    error = phone.wait_for_selector("[data-testid=account-panel] [data-testid=error]")
    assert "Wrong username or password" in error.text_content()
    fill_account(phone, "login", name, PASSWORD)
    phone.wait_for_selector("[data-testid=account-name]")
    phone.wait_for_selector(f"[data-testid=my-game][data-room='{room_id}']")
    assert my_rooms(phone) == [room_id], "the same games, without a transfer link"
    phone.locator("[data-testid=account-panel]").scroll_into_view_if_needed()
    shoot(phone, screenshots, "phone-account-signed-in")
    problems += axe_problems(phone)

    # the phone takes the laptop's seat up again from "My games", with no token or link
    phone.click(f"[data-testid=my-game][data-room='{room_id}'] [data-testid=rejoin]")
    phone.wait_for_url(f"**/r/{room_id}")
    phone.wait_for_function("() => window.__krypkasino?.store.get().view?.you === 0")

    # signed in, the page's own requests carry the CSRF token: making a room works
    create_room(phone, "Ann", players=2, bots=1)
    second = phone.url.rsplit("/", 1)[1]
    laptop.goto("/")
    laptop.wait_for_selector(f"[data-testid=my-game][data-room='{second}']")

    phone.goto("/")
    phone.click("[data-testid=account-logout]")
    phone.wait_for_selector("[data-testid=account-form]")
    phone.wait_for_selector(f"[data-testid=my-game][data-room='{second}']")
    assert room_id not in my_rooms(phone), "signed out, the phone shows its own key's rooms"
    assert not laptop.errors and not phone.errors
    assert not problems, problems


def test_the_panel_speaks_every_language_and_deletion_asks_first(new_page, screenshots) -> None:
    page = new_page(PHONE)
    page.goto("/")
    fill_account(page, "register", f"Bo_{secrets.token_hex(3)}", PASSWORD)
    page.wait_for_selector("[data-testid=account-name]")
    page.select_option(".lang-switch select", "sv")
    page.wait_for_function("() => document.documentElement.lang === 'sv'")
    assert "Inloggad som" in page.locator("[data-testid=account-name]").text_content()
    page.click("[data-testid=account-delete]")
    question = page.wait_for_selector("[role=alertdialog]")
    assert "borttagen spelare" in question.text_content()
    page.locator("[data-testid=account-panel]").scroll_into_view_if_needed()
    shoot(page, screenshots, "phone-account-delete-sv")
    page.click("[data-testid=account-delete-yes]")
    page.wait_for_selector("[data-testid=account-form]")
    assert page.evaluate("() => fetch('/api/me').then((r) => r.status)") == 401
    assert not page.errors


@pytest.fixture
def members_server(chromium: Any, tmp_path: Any) -> Iterator[Server]:
    srv = Server(tmp_path, env={"ACCESS": "members"})
    yield srv
    srv.stop()


def test_a_members_only_room_asks_to_sign_in_then_opens(
    browser: Any, members_server: Server, screenshots: Any
) -> None:
    ctx = browser.new_context(viewport=PHONE, base_url=members_server.url, locale="en-GB")
    ctx.set_default_timeout(WAIT_MS)
    try:
        host = ctx.new_page()
        host.goto("/")
        fill_account(host, "register", f"Cy_{secrets.token_hex(3)}", PASSWORD)
        host.wait_for_selector("[data-testid=account-name]")
        create_room(host, "Cy", players=2, bots=0)
        room_url = host.url

        guest_ctx = browser.new_context(viewport=PHONE, base_url=members_server.url, locale="en-GB")
        guest_ctx.set_default_timeout(WAIT_MS)
        guest = guest_ctx.new_page()
        errors: list[str] = []
        guest.on("pageerror", lambda exc: errors.append(str(exc)))
        guest.goto(room_url)
        notice = guest.wait_for_selector("[data-testid=error]")
        assert "Sign in first" in notice.text_content()
        guest.wait_for_selector("[data-testid=account-form]")
        hint = guest.wait_for_selector("[data-testid=account-hint]")
        assert "for its members" in hint.text_content()
        shoot(guest, screenshots, "phone-members-sign-in-first")
        fill_account(guest, "register", f"Di_{secrets.token_hex(3)}", PASSWORD)
        guest.wait_for_url(room_url)
        guest.wait_for_selector("[data-testid=join-form]")
        assert guest.evaluate("() => fetch('/api/me').then((r) => r.status)") == 200
        assert not errors
        guest_ctx.close()
    finally:
        ctx.close()
