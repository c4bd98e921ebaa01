"""A tournament's page in the browser (issue 49).

An organiser makes a club event from the club's page (its form), registers on the
event's page; a member who joined through the invite link registers too; the
organiser starts it and both find "Your table", a room where their accounts hold the
seats, so that they sit at once.  A signed-out visitor sees the standings and the
tables (a bot's seat shown as a bot), with no serious accessibility problem."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.browser.test_clubs import made_club, signed_up
from tests.browser.test_looks import axe_problems

pytestmark = pytest.mark.browser

SEATED = "() => Number.isInteger(window.__krypkasino?.store.get().view?.you)"


def made_event(
    page: Any, name: str, fmt: str, players: int, count: int, entry: str, every: int | None = None
) -> str:
    """An event made with the form on the club's page ``page`` shows (a Swiss one with
    rounds ``every`` so many minutes, when given); its page's URL."""
    page.wait_for_selector("[data-testid=club-event-form]")
    page.fill("[data-testid=club-event-name]", name)
    page.select_option("[data-testid=club-event-format]", fmt)
    page.select_option("[data-testid=club-event-players]", str(players))
    page.fill("[data-testid=club-event-count]", str(count))
    if every is not None:
        page.select_option("[data-testid=club-event-round-minutes]", str(every))
    page.select_option("[data-testid=club-event-entry]", entry)
    page.click("[data-testid=club-event-make]")
    page.wait_for_url("**/tournaments/*")
    page.wait_for_selector("[data-testid=tournament-state][data-state=registering]")
    assert page.text_content("[data-testid=tournament-name]") == name
    return str(page.url)


def registered(page: Any, name: str) -> None:
    page.click("[data-testid=tournament-register]")
    page.wait_for_selector("[data-testid=tournament-withdraw]")
    page.wait_for_selector(f"[data-testid=tournament-entrants] li[data-username='{name}']")


def standing_names(page: Any) -> set[str]:
    rows = page.query_selector_all("[data-testid=tournament-standings] tbody tr")
    return {str(row.get_attribute("data-username")) for row in rows}


def test_a_club_event_made_on_the_club_page_seats_its_entrants_at_their_table(new_page) -> None:
    ann, bob = f"Ann_{secrets.token_hex(3)}", f"Bob_{secrets.token_hex(3)}"
    owner = new_page()
    sockets: list[str] = []
    owner.on("websocket", lambda ws: sockets.append(ws.url))
    signed_up(owner, ann)
    link = made_club(owner, f"Events {secrets.token_hex(3)}")
    club_url = owner.url
    event_name = f"Cup {secrets.token_hex(3)}"
    event_url = made_event(owner, event_name, "duplicate", 2, 2, "club")
    event_id = event_url.rsplit("/", 1)[1]
    plan = owner.text_content("[data-testid=tournament-plan]")
    assert "2 boards" in plan and "2 players at each table" in plan and "Club members only" in plan
    assert owner.text_content("[data-testid=tournament-format]") == "Duplicate"
    assert ann in owner.text_content("[data-testid=tournament-organiser]")
    hashes = owner.query_selector_all("[data-testid=tournament-boards] li")
    assert len(hashes) == 2 and owner.query_selector("[data-testid=tournament-seed]") is None
    owner.wait_for_selector("[data-testid=tournament-start]")
    registered(owner, ann)

    member = new_page()
    signed_up(member, bob)
    member.goto(link)
    member.click("[data-testid=club-join]")
    member.wait_for_url("**/clubs/*")
    event = member.wait_for_selector(f"[data-testid=club-event][data-event='{event_id}']")
    assert event_name in event.text_content() and "Registering" in event.text_content()
    assert member.query_selector("[data-testid=club-event-form]") is None, "members make none"
    event.query_selector("a").click()
    member.wait_for_url(event_url)
    member.wait_for_selector("[data-testid=tournament-register]")
    assert member.query_selector("[data-testid=tournament-start]") is None
    registered(member, bob)

    # the organiser's page follows by itself: the server pushes each change to it
    owner.wait_for_selector(f"[data-testid=tournament-entrants] li[data-username='{bob}']")
    assert any(f"/ws/tournaments/{event_id}" in url for url in sockets), sockets
    owner.click("[data-testid=tournament-start]")
    owner.wait_for_selector("[data-testid=tournament-state][data-state=running]")
    member.wait_for_selector("[data-testid=tournament-state][data-state=running]")
    assert standing_names(owner) == {ann, bob}
    rooms = set()
    for page in (owner, member):
        page.click("[data-testid=tournament-your-table]")
        page.wait_for_url("**/r/*")
        page.wait_for_function(SEATED)
        assert page.locator("[data-testid=watching]").count() == 0
        rooms.add(page.url.rsplit("/", 1)[1])
    assert len(rooms) == 1, "one table of two"

    owner.goto(club_url)
    listed = owner.wait_for_selector(f"[data-testid=club-event][data-event='{event_id}']")
    assert "Under way" in listed.text_content() or "Finished" in listed.text_content()
    assert owner.errors == [] and member.errors == []


def test_a_signed_out_visitor_sees_the_standings_and_the_tables(new_page) -> None:
    """An open Swiss event of three a table, two entrants: one table, a bot in its third
    seat.  The visitor has no button to register, only the word to sign in.  Its two
    rounds are an hour apart: the plan says so, and once it runs, when round 2 starts."""
    ann, bob = f"Ann_{secrets.token_hex(3)}", f"Bob_{secrets.token_hex(3)}"
    owner = new_page()
    signed_up(owner, ann)
    made_club(owner, f"Open {secrets.token_hex(3)}")
    event_url = made_event(owner, f"Open cup {secrets.token_hex(3)}", "swiss", 3, 2, "open", 60)
    assert "A round every 60 minutes" in owner.text_content("[data-testid=tournament-plan]")
    registered(owner, ann)
    entrant = new_page()  # not in the club: the event is open to everyone
    signed_up(entrant, bob)
    entrant.goto(event_url)
    registered(entrant, bob)
    owner.wait_for_selector(f"[data-testid=tournament-entrants] li[data-username='{bob}']")
    owner.click("[data-testid=tournament-start]")
    owner.wait_for_selector("[data-testid=tournament-your-table]")

    visitor = new_page()
    visitor.goto(event_url)
    visitor.wait_for_selector("[data-testid=tournament-state]:not([data-state=registering])")
    visitor.wait_for_selector("[data-testid=tournament-standings] tbody tr")
    assert standing_names(visitor) == {ann, bob}
    heads = visitor.locator("[data-testid=tournament-standings] thead th[scope=col]")
    assert heads.all_text_contents() == ["Place", "Player", "Score", "Tiebreak", "Played"]
    tables = visitor.wait_for_selector("[data-testid=tournament-tables]")
    rows = tables.query_selector_all("[data-testid=tournament-table]")
    assert len(rows) == 1
    seats = rows[0].query_selector_all("td[data-seat]")
    assert {s.get_attribute("data-username") for s in seats} == {ann, bob, ""}
    bots = [s for s in seats if s.get_attribute("data-bot") == "true"]
    assert len(bots) == 1 and "Bot" in bots[0].text_content()
    assert "Round 1" in tables.text_content()
    shown = visitor.evaluate(
        "(id) => fetch(`/api/tournaments/${id}`).then((r) => r.json())", event_url.rsplit("/", 1)[1]
    )
    assert shown["next_round_ms"] == shown["started_ms"] + 60 * 60_000
    hint = visitor.wait_for_selector("[data-testid=tournament-next-round]").text_content()
    assert hint.startswith("Round 2 starts at"), hint
    assert visitor.query_selector("[data-testid=tournament-register]") is None
    assert visitor.query_selector("[data-testid=tournament-your-table]") is None
    if visitor.get_attribute("[data-testid=tournament-state]", "data-state") == "running":
        assert visitor.query_selector("[data-testid=tournament-sign-in]") is not None
    csv = visitor.get_attribute("[data-testid=tournament-csv]", "href")
    assert csv is not None and csv.endswith("/results.csv")
    assert visitor.evaluate("(u) => fetch(u).then((r) => r.status)", csv) == 200
    problems = axe_problems(visitor)
    assert not problems, problems
    assert owner.errors == [] and entrant.errors == [] and visitor.errors == []
