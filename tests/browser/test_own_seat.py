"""A player's own seat on every device (issue 47), in Chromium.

Ann signs in on her laptop and takes a seat in Bo's room; on a second device (its own
storage: no token, no player key of hers) she signs in and opens the room's link: she
is at her seat there too (``you`` set, no WATCHING badge, her seat online) and plays
the deal from it while the laptop keeps the seat.  In the shared review Bo starts,
the second device is named by her seat, not "A spectator"; the replay says which
seat was hers.  Someone else opening the link (signed in or not) only watches; a
spectator of a waiting room with a free seat is offered it."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from app.accounts.tokens import SESSION_COOKIE
from tests.browser.conftest import DESKTOP
from tests.browser.driver import Player, create_room, play_together
from tests.browser.test_accounts import PASSWORD, fill_account

pytestmark = pytest.mark.browser

SEAT_JS = "() => window.__krypkasino?.store.get().view?.you"


def signed_in(page: Any, mode: str, name: str) -> None:
    page.goto("/")
    page.wait_for_selector("[data-testid=account-form]")
    fill_account(page, mode, name, PASSWORD)
    page.wait_for_selector("[data-testid=account-name]")


def seat_of(page: Any) -> Any:
    """The seat the page plays (``view.you``) once it holds a view."""
    page.wait_for_function("() => window.__krypkasino?.store.get().view")
    return page.evaluate(SEAT_JS)


def wait_seat(page: Any, seat: int) -> None:
    page.wait_for_function(
        "(seat) => window.__krypkasino?.store.get().view?.you === seat", arg=seat
    )


def test_the_rooms_link_seats_its_player_on_a_second_device_in_room_review_and_replay(
    new_page,
) -> None:
    name = f"Ann_{secrets.token_hex(3)}"
    laptop = new_page(DESKTOP)
    signed_in(laptop, "register", name)
    bo = new_page(DESKTOP)
    create_room(bo, "Bo", players=2, bots=0, rules=("single_pack",), match_deals=2)
    link = bo.url
    room_id = link.rsplit("/", 1)[1]
    laptop.goto(link)  # Ann takes the free seat, signed in: the seat is her account's
    laptop.fill("#join-name", "Ann")
    laptop.click("[data-testid=take-seat]")
    wait_seat(laptop, 1)

    phone = new_page(DESKTOP)  # the second device: no token, no key of the laptop's
    signed_in(phone, "login", name)
    phone.goto(link)
    wait_seat(phone, 1)
    assert phone.url == link, "the room's own link, not the one to watch"
    assert phone.locator("[data-testid=watching]").count() == 0
    phone.wait_for_function("() => window.__krypkasino.store.get().presence?.[1] === true")
    mine = phone.locator(".me-head")
    assert "(you)" in mine.inner_text() and mine.locator(".badge.away").count() == 0
    # Bo sees Ann online, and the laptop still holds the seat (nothing moved it)
    bo.wait_for_function("() => window.__krypkasino.store.get().presence?.[1] === true")
    assert seat_of(laptop) == 1
    assert laptop.evaluate("() => window.__krypkasino.store.get().error") is None

    # the second device plays the deal from Ann's seat
    plays = play_together([Player(bo), Player(phone)])
    assert plays == 48, "a single-pack deal of two: every move made from the two pages"
    assert seat_of(laptop) == 1

    # a shared review: Bo starts it, the second device joins and is named by her seat
    bo.click("[data-testid=close-summary]")
    phone.click("[data-testid=close-summary]")
    bo.wait_for_function("() => window.__krypkasino.store.get().view.deal_no === 2")
    bo.click("[data-testid=review-picker] summary")
    bo.click("[data-testid=start-review][data-match='1'][data-deal='1']")
    bo.wait_for_selector("[data-testid=review-pane][data-driving=yes]")
    phone.click("[data-testid=join-review]")
    phone.wait_for_selector("[data-testid=review-pane][data-driving=no]")
    people = bo.locator("[data-testid=review-person]")
    people.nth(1).wait_for()
    names = [p.inner_text() for p in people.all()]
    assert any("Ann" in n for n in names), names
    assert not any("spectator" in n.lower() for n in names), names

    # the replay of the deal, on the second device, says which seat was hers
    phone.goto(f"/r/{room_id}/replay/1/1")
    you = phone.wait_for_selector("[data-testid=replay-you]")
    assert you.get_attribute("data-seat") == "1"
    assert you.inner_text() == "Your seat: Ann"
    for page in (laptop, bo, phone):
        assert not page.errors, page.errors


def test_anyone_else_only_watches_and_a_free_seat_is_offered(new_page) -> None:
    laptop = new_page(DESKTOP)
    signed_in(laptop, "register", f"Ann_{secrets.token_hex(3)}")
    create_room(laptop, "Ann", players=2, bots=1)
    link = laptop.url
    assert seat_of(laptop) == 0

    other = new_page(DESKTOP)  # another account
    signed_in(other, "register", f"Bo_{secrets.token_hex(3)}")
    other.goto(link)
    other.wait_for_selector("[data-testid=watching]")
    assert seat_of(other) is None
    assert other.locator("[data-testid=take-own-seat]").count() == 0
    guest = new_page(DESKTOP)  # signed out, a forged session cookie
    forged = {"name": SESSION_COOKIE, "value": secrets.token_urlsafe(32), "url": link}
    guest.context.add_cookies([forged])
    guest.goto(link)
    guest.wait_for_selector("[data-testid=watching]")
    assert seat_of(guest) is None

    # a spectator of a room that waits with a free seat is offered it
    host = new_page(DESKTOP)
    create_room(host, "Cy", players=3, bots=0)
    watcher = new_page(DESKTOP)
    watcher.goto(host.url + "?watch=1")
    watcher.wait_for_selector("[data-testid=waiting-room] [data-testid=watching]")
    watcher.click("[data-testid=sit-down]")
    watcher.fill("#join-name", "Di")
    watcher.click("[data-testid=take-seat]")
    wait_seat(watcher, 1)
    for page in (laptop, other, guest, host, watcher):
        assert not page.errors, page.errors


RECLAIM_JS = """async (rid) => {
    const csrf = document.cookie.split('; ').find((c) => c.startsWith('kk_csrf='));
    const r = await fetch(`/api/rooms/${rid}/seats/reclaim`, {
        method: 'POST', headers: {'X-CSRF-Token': csrf ? csrf.slice(8) : ''}});
    return r.status;
}"""


def test_a_device_whose_seat_moved_away_is_offered_it_back(new_page) -> None:
    name = f"Ann_{secrets.token_hex(3)}"
    laptop = new_page(DESKTOP)
    signed_in(laptop, "register", name)
    create_room(laptop, "Ann", players=2, bots=1)
    link = laptop.url
    room_id = link.rsplit("/", 1)[1]
    wait_seat(laptop, 0)
    tablet = new_page(DESKTOP)
    signed_in(tablet, "login", name)
    # "Rejoin" elsewhere moves the seat (a new token): this device watches, and says why
    assert tablet.evaluate(RECLAIM_JS, room_id) == 200
    laptop.wait_for_selector("[data-testid=watching]")
    assert "taken up again on another device" in laptop.locator("[data-testid=error]").inner_text()
    laptop.click("[data-testid=take-own-seat]")  # its account still holds the seat
    wait_seat(laptop, 0)
    assert laptop.locator("[data-testid=watching]").count() == 0
    # its own link to watch seats it too, and so does a reload
    laptop.goto(link + "?watch=1")
    wait_seat(laptop, 0)
    assert not laptop.errors, laptop.errors
