"""A club in the browser (issue 49): one person signs up, makes a club on /clubs and
copies its invite link from the club's page; a second person, in a browser context of
their own, opens the link, joins, and both see each other in the members list.  A
name with markup is shown as text, never run."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.browser.test_accounts import PASSWORD, fill_account

pytestmark = pytest.mark.browser


def signed_up(page: Any, name: str) -> None:
    page.goto("/")
    page.wait_for_selector("[data-testid=account-form]")
    fill_account(page, "register", name, PASSWORD)
    page.wait_for_selector("[data-testid=account-name]")


def members(page: Any) -> dict[str, str]:
    return {
        str(row.get_attribute("data-username")): str(row.get_attribute("data-role"))
        for row in page.query_selector_all("[data-testid=club-member]")
    }


def test_a_club_made_and_joined_through_its_invite_link(new_page) -> None:
    ann, bob = f"Ann_{secrets.token_hex(3)}", f"Bob_{secrets.token_hex(3)}"
    owner = new_page()
    signed_up(owner, ann)
    owner.goto("/clubs")
    owner.wait_for_selector("[data-testid=my-clubs-empty]")
    club_name = f"Kasino {secrets.token_hex(3)}"
    owner.fill("[data-testid=club-name]", club_name)
    owner.fill("[data-testid=club-description]", "Tuesdays.\n<b>not bold</b> 2 < 3")
    owner.click("[data-testid=club-make]")
    error = owner.wait_for_selector("[data-testid=error]")  # markup in a description: refused
    assert "plain text" in error.text_content()
    owner.fill("[data-testid=club-description]", "Tuesdays.\nAll welcome: 2 < 3")
    owner.click("[data-testid=club-make]")
    owner.wait_for_url("**/clubs/*")
    owner.wait_for_selector(f"[data-testid=club-member][data-username='{ann}']")  # loaded
    assert owner.text_content("[data-testid=club-title]") == club_name
    assert owner.text_content("[data-testid=club-description]") == "Tuesdays.\nAll welcome: 2 < 3"
    assert members(owner) == {ann: "owner"}

    owner.click("[data-testid=club-invite-new]")
    link = owner.wait_for_selector("[data-testid=club-invite-link]").input_value()
    assert "/clubs/join#kkc_" in link

    joiner = new_page()
    signed_up(joiner, bob)
    joiner.goto(link)
    joiner.click("[data-testid=club-join]")
    joiner.wait_for_url("**/clubs/*")
    joiner.wait_for_selector(f"[data-testid=club-member][data-username='{bob}']")
    assert members(joiner) == {ann: "owner", bob: "member"}
    assert joiner.query_selector("[data-testid=club-invite-new]") is None, "members make no links"
    assert "Member" in joiner.text_content("[data-testid=club-you]")

    owner.reload()
    owner.wait_for_selector(f"[data-testid=club-member][data-username='{bob}']")
    assert members(owner) == {ann: "owner", bob: "member"}
    joiner.goto("/clubs")
    joiner.wait_for_selector(f"[data-testid=my-clubs] a:text('{club_name}')")
    assert owner.errors == [] and joiner.errors == []


def test_the_lobby_leads_to_the_clubs_and_the_ladder(new_page) -> None:
    """Both pages are reached from the lobby by their links' names, not only by URL."""
    page = new_page()
    page.goto("/")
    page.get_by_role("link", name="Clubs").click()
    page.wait_for_url("**/clubs")
    page.get_by_role("heading", name="Clubs").first.wait_for()
    page.go_back()
    page.get_by_role("link", name="Bot ladder").click()
    page.wait_for_url("**/ladder")
    page.get_by_role("heading", name="Bot ladder").first.wait_for()
    assert not page.errors, page.errors


def made_club(page: Any, name: str) -> str:
    """A club made on /clubs by the signed-in ``page``; its invite link."""
    page.goto("/clubs")
    page.wait_for_selector("[data-testid=my-clubs-empty]")
    page.fill("[data-testid=club-name]", name)
    page.click("[data-testid=club-make]")
    page.wait_for_url("**/clubs/*")
    page.click("[data-testid=club-invite-new]")
    return str(page.wait_for_selector("[data-testid=club-invite-link]").input_value())


def test_a_club_room_made_on_the_club_page_seats_members_only(new_page) -> None:
    """The owner makes a club room of three from the club's page and lands at its
    table; a person outside the club, opening the room's link, is told its seats are
    the members' and sits nowhere; a member finds the room in the club's rooms and
    takes a seat."""
    ann, bob, eve = (f"{n}_{secrets.token_hex(3)}" for n in ("Ann", "Bob", "Eve"))
    owner = new_page()
    signed_up(owner, ann)
    link = made_club(owner, f"Rooms {secrets.token_hex(3)}")
    club_url = owner.url
    member = new_page()
    signed_up(member, bob)
    member.goto(link)
    member.click("[data-testid=club-join]")
    member.wait_for_url("**/clubs/*")

    owner.goto(club_url)
    owner.wait_for_selector("[data-testid=club-rooms-none]")
    owner.select_option("[data-testid=club-room-players]", "3")
    owner.click("[data-testid=club-room-make]")
    owner.wait_for_url("**/r/*")
    room_id = owner.url.rsplit("/", 1)[1]
    owner.wait_for_function("() => window.__krypkasino.store.get().view?.status === 'waiting'")

    outsider = new_page()
    signed_up(outsider, eve)
    outsider.goto(f"/r/{room_id}")
    outsider.wait_for_selector("[data-testid=join-form]")
    outsider.fill("#join-name", eve)
    outsider.click("[data-testid=take-seat]")
    error = outsider.wait_for_selector("[data-testid=error]")
    assert "members" in error.text_content()

    member.goto(club_url)
    entry = member.wait_for_selector(f"[data-testid=club-room][data-room='{room_id}']")
    assert ann in entry.text_content()
    entry.query_selector("a").click()
    member.wait_for_selector("[data-testid=join-form]")
    member.fill("#join-name", bob)
    member.click("[data-testid=take-seat]")
    owner.wait_for_function(
        "(n) => window.__krypkasino.store.get().view?.seats[1]?.name === n", arg=bob
    )
    seats = owner.evaluate(f"() => fetch('/api/rooms/{room_id}').then((r) => r.json())")
    assert [s["name"] for s in seats["seats"]] == [ann, bob, None], "the outsider sits nowhere"
    assert owner.errors == [] and member.errors == [] and outsider.errors == []


def test_a_club_is_found_by_its_name_and_asked_to_join(new_page) -> None:
    """On /clubs a person searches the directory by part of a club's name (another
    case), opens the club's page from the result and asks to join; the owner sees the
    request."""
    tag = secrets.token_hex(3)
    ann, bob = f"Ann_{tag}", f"Bob_{tag}"
    owner = new_page()
    signed_up(owner, ann)
    made_club(owner, f"Tuesday {tag} Kasino")
    club_url = owner.url
    seeker = new_page()
    signed_up(seeker, bob)
    seeker.goto("/clubs")
    seeker.fill("[data-testid=club-find]", f"{tag} KASINO")
    seeker.click("[data-testid=club-find-go]")
    result = seeker.wait_for_selector("[data-testid=club-found] a")
    assert result.text_content() == f"Tuesday {tag} Kasino"
    result.click()
    seeker.wait_for_url(club_url)
    seeker.click("[data-testid=club-ask]")
    seeker.wait_for_selector("[data-testid=club-requested]")
    owner.goto(club_url)
    owner.wait_for_selector(f"[data-testid=club-requests] li[data-username='{bob}']")
    seeker.goto("/clubs")
    seeker.fill("[data-testid=club-find]", f"no such {tag}")
    seeker.click("[data-testid=club-find-go]")
    seeker.wait_for_selector("[data-testid=club-found-none]")
    assert owner.errors == [] and seeker.errors == []
