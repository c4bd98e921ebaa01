"""Quick pairing in Chromium (issue 34): two people in two browsers choose "Find a game",
see the waiting indicator with its time, one cancels and starts again, and both land
in the same room, each in their own seat; one person alone who accepts bots after 30 s
is seated with bots then (in Swedish); a signed-in person sits under their username.  Screenshots of each step."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import Player, press
from tests.browser.test_accounts import PASSWORD, fill_account
from tests.browser.test_looks import axe_problems, shoot

pytestmark = pytest.mark.browser


def start_search(page: Any, name: str, players: int, bots: str, completes: bool = False) -> None:
    """Fill in "Find a game" and start it.  The search that ``completes`` a table is
    matched on its first answer and opens the room at once, with no waiting state in
    between (the caller waits for the room's URL instead)."""
    page.goto("/")
    page.wait_for_selector("[data-testid=find-game]")
    page.fill("[data-testid=find-name]", name)
    page.check(f"input[name=find-players][value='{players}']")
    page.select_option("[data-testid=find-bots]", bots)
    press(page, "[data-testid=find-start]")
    if not completes:
        page.wait_for_selector("[data-testid=find-waiting]")


def test_two_people_find_a_game_together(new_page, screenshots) -> None:  # type: ignore[no-untyped-def]
    ann, bo = new_page(DESKTOP), new_page(PHONE)
    ann.goto("/")
    ann.wait_for_selector("[data-testid=find-game]")
    assert ann.locator("[data-testid=find-pace] option:checked").inner_text() == "Live"
    shoot(ann.locator("[data-testid=find-game]"), screenshots, "pairing-choices")

    # Ann waits: the time waited counts up; she cancels and the form is back.
    start_search(ann, "Ann", 3, "never")
    ann.wait_for_function(
        "() => document.querySelector('[data-testid=find-elapsed]').textContent !== '0:00'"
    )
    assert "table of 3" in ann.inner_text("[data-testid=find-waiting]")
    shoot(ann.locator("[data-testid=find-game]"), screenshots, "pairing-waiting")
    assert not axe_problems(ann)
    press(ann, "[data-testid=find-cancel]")
    ann.wait_for_selector("[data-testid=find-start]")
    assert ann.evaluate("sessionStorage.getItem('krypkasino.pairing')") is None

    # Both look for a table of two; the second to come seats them both.
    start_search(ann, "Ann", 2, "never")
    ann.reload()  # a reload goes on waiting with the same ticket
    ann.wait_for_selector("[data-testid=find-waiting]")
    start_search(bo, "Bo", 2, "never", completes=True)
    shoot(bo, screenshots, "pairing-phone-waiting")
    for page in (ann, bo):
        page.wait_for_url("**/r/*")
    assert ann.url.rsplit("/", 1)[1] == bo.url.rsplit("/", 1)[1]
    views = [Player(p).wait_view() for p in (ann, bo)]
    assert sorted(v["you"] for v in views) == [0, 1]
    assert [s["name"] for s in views[0]["seats"]] == ["Ann", "Bo"]
    assert not any(s["bot"] for s in views[0]["seats"])
    shoot(ann, screenshots, "pairing-room-desktop")
    shoot(bo, screenshots, "pairing-room-phone")
    assert not ann.errors and not bo.errors


def test_bots_fill_the_table_after_the_chosen_time(new_page, screenshots) -> None:  # type: ignore[no-untyped-def]
    cy = new_page(DESKTOP)
    cy.goto("/")
    cy.wait_for_selector("[data-testid=find-game]")
    cy.evaluate("localStorage.setItem('krypkasino.lang', 'sv')")
    start_search(cy, "Cy", 4, "30")
    assert "bord för 4" in cy.inner_text("[data-testid=find-waiting]")
    shoot(cy.locator("[data-testid=find-game]"), screenshots, "pairing-waiting-sv")
    # After the thirty seconds chosen (the server's time, polled), bots take the seats.
    cy.wait_for_url("**/r/*", timeout=90000)
    view = Player(cy).wait_view()
    assert [s["bot"] for s in view["seats"]] == [False, True, True, True]
    assert not cy.errors


def test_a_signed_in_person_finds_a_game_under_their_username(new_page, screenshots) -> None:  # type: ignore[no-untyped-def]
    """Signed in, the name may be left empty: the account's username is the seat's."""
    username = f"Dee_{secrets.token_hex(3)}"
    dee, eli = new_page(DESKTOP), new_page(DESKTOP)
    dee.goto("/")
    fill_account(dee, "register", username, PASSWORD)
    dee.wait_for_selector(f"[data-testid=find-name][placeholder='{username}']")
    dee.fill("[data-testid=find-name]", "")
    dee.check("input[name=find-players][value='2']")
    dee.select_option("[data-testid=find-bots]", "never")
    press(dee, "[data-testid=find-start]")
    dee.wait_for_selector("[data-testid=find-waiting]")
    start_search(eli, "Eli", 2, "never", completes=True)
    for page in (dee, eli):
        page.wait_for_url("**/r/*")
    view = Player(dee).wait_view()
    assert sorted(s["name"] for s in view["seats"]) == sorted([username, "Eli"])
    shoot(dee, screenshots, "pairing-room-account")
    assert not dee.errors and not eli.errors
