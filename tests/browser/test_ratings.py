"""The leaderboard and a profile in Chromium (issue 34), on a server of their own that
lists anyone with one rated match: Ann beats, or loses to, Bob in a rated match
played over the WebSocket to the end, and plays one against a random bot.  Each page
shows what the API says, links to the other and to the replays, says "deleted
player" for a deleted account, and has no serious accessibility problem; screenshots
at phone and desktop sizes go to test-artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.driver import open_create_form
from tests.browser.test_looks import axe_problems, shoot
from tests.conftest import run_async
from tests.server.harness import Client
from tests.server.test_ratings import Person, _play_to_the_end, _rated, play_random_alone

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"REGISTER_PER_HOUR": "0", "LEADERBOARD_MIN_MATCHES": "1"}
    srv = Server(tmp_path_factory.mktemp("ratings-server"), env=env)
    yield srv
    srv.stop()


class Base:
    """What tests/server/harness.py's Client needs of a server."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ws_url = url.replace("http", "ws", 1)


@pytest.fixture(scope="module")
def played(server: Server) -> dict[str, Any]:
    """Two rated matches: Ann against Bob, and Ann against a random bot."""
    ann, bob = Person(server.url, "Ann"), Person(server.url, "Bob")
    room = ann.create()
    seat = bob.join(room["room_id"])
    base = Base(server.url)
    run_async(_play_to_the_end(base, room["room_id"], [room["token"], seat["token"]]))  # type: ignore[arg-type]
    _rated(ann)
    _rated(bob)
    against_bot = ann.create(bots=1, bot_level="random", bot_delay=0)

    async def alone() -> None:
        me = await Client(base.ws_url, against_bot["room_id"], against_bot["token"]).connect()
        await me.wait_for(lambda m: m["type"] == "snapshot")
        await play_random_alone(me)
        await me.close()

    run_async(alone())
    _rated(ann, matches=2)
    board = fetch.get(server.url + "/api/leaderboard?players=2", timeout=10).json()
    return {"ann": ann, "bob": bob, "room": room["room_id"], "board": board}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_leaderboard_lists_the_rated_players_best_first(
    new_page: Any, screenshots: Any, played: dict[str, Any], size: str
) -> None:
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    page.click("[data-testid=leaderboard-link]")
    page.wait_for_selector("[data-testid=leader-row]")
    rows = page.eval_on_selector_all(
        "[data-testid=leader-row]", "rows => rows.map(r => r.dataset.username)"
    )
    assert rows == [e["username"] for e in played["board"]["entries"]]
    assert sorted(rows) == ["Ann", "Bob"]
    shown = page.text_content("[data-testid=leader-row] [data-k=matches]")
    assert shown == str(played["board"]["entries"][0]["matches"])
    shoot(page, screenshots, f"{size}-leaderboard")
    assert axe_problems(page) == []

    page.click("[data-testid=count-tab][data-players='3']")
    page.wait_for_selector("[data-testid=leaderboard-empty]")
    assert "3" in page.text_content("[data-testid=leaderboard-empty]")
    assert page.url.endswith("/leaderboard?players=3")
    page.go_back()
    page.wait_for_selector("[data-testid=leader-row]")
    page.click("[data-testid=leader-row][data-username=Ann] a")
    page.wait_for_selector("[data-testid=profile-ratings]")
    assert page.text_content("[data-testid=profile-title]") == "Ann"
    assert not page.errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_profile_shows_the_figures_and_recent_matches(
    new_page: Any, screenshots: Any, played: dict[str, Any], server: Server, size: str
) -> None:
    profile = fetch.get(server.url + "/api/profiles/ann", timeout=10).json()
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto("/players/Ann")
    page.wait_for_selector("[data-testid=recent-match]")
    games = page.eval_on_selector_all(
        "[data-testid=games-row] [data-k=matches]", "cells => cells.map(c => c.textContent)"
    )
    assert games == ["2"]
    assert page.get_attribute("[data-testid=games-row]", "data-players") == "2"
    made = profile["sweeps"]["made"] + profile["sweeps"]["doubles_made"]
    assert page.text_content("[data-testid=profile-figures] [data-k=sweeps_made]") == str(made)
    assert page.text_content("[data-testid=profile-figures] [data-k=coach]") == (
        "no analysed deals yet"
    )
    assert page.locator("[data-testid=recent-match]").count() == 2
    assert page.locator("[data-testid=rating-change]").count() == 2
    shoot(page, screenshots, f"{size}-profile")
    assert axe_problems(page) == []

    page.click(
        f"[data-testid=recent-match][data-room='{played['room']}'] [data-testid=recent-replay]"
    )
    page.wait_for_url(f"**/r/{played['room']}/replay/1/1")
    page.wait_for_selector("[data-testid=replay-board]")
    assert not page.errors


def test_a_deleted_account_shows_as_deleted_player(
    new_page: Any, screenshots: Any, played: dict[str, Any]
) -> None:
    bob = played["bob"]
    assert bob.http.delete("/api/me", headers={"X-CSRF-Token": bob.csrf}).status_code == 204
    page = new_page(DESKTOP)
    page.goto("/players/Ann")
    page.wait_for_selector(f"[data-testid=recent-match][data-room='{played['room']}']")
    row = page.text_content(f"[data-testid=recent-match][data-room='{played['room']}']")
    assert "deleted player" in row and "Bob" not in row
    shoot(page, screenshots, "desktop-profile-deleted-opponent")
    page.goto("/players/Bob")
    page.wait_for_selector("[data-testid=error]")
    assert page.text_content("[data-testid=error]") == "No player by that name."
    page.goto("/leaderboard?players=2")
    page.wait_for_selector("[data-testid=leader-row]")
    rows = page.eval_on_selector_all(
        "[data-testid=leader-row]", "rows => rows.map(r => r.dataset.username)"
    )
    assert rows == ["Ann"]
    assert not page.errors


def _signed_in(page: Any, person: Person, server: Server) -> None:
    """Give the page's browser context the person's session cookies."""
    page.context.add_cookies(
        [
            {"name": c.name, "value": c.value or "", "url": server.url}
            for c in person.http.cookies.jar
        ]
    )


def test_a_signed_in_person_makes_a_rated_room_and_finds_their_profile(
    new_page: Any, screenshots: Any, played: dict[str, Any], server: Server
) -> None:
    page = new_page(DESKTOP)
    page.goto("/")
    open_create_form(page)
    page.fill("#create-name", "Cy")
    page.check("[data-testid=create-rated]")
    page.click("[data-testid=create-room]")
    page.wait_for_selector("[data-testid=error]")
    assert "sign in first" in page.text_content("[data-testid=error]")
    assert "/r/" not in page.url, "no room was made"

    ann = played["ann"]
    _signed_in(page, ann, server)
    page.goto("/")
    page.click("[data-testid=account-profile]")
    page.wait_for_selector("[data-testid=profile-ratings]")
    assert page.text_content("[data-testid=profile-title]") == "Ann"
    page.goto("/")
    open_create_form(page)
    page.fill("#create-name", "Ann")
    page.check("[data-testid=create-rated]")
    shoot(page, screenshots, "desktop-create-rated")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    room_id = page.url.rsplit("/", 1)[-1]
    summary = fetch.get(f"{server.url}/api/rooms/{room_id}", timeout=10).json()
    assert summary["options"]["rated"] is True
    page.wait_for_selector("[data-testid=rated-badge], [data-testid=rated-note]")
    shoot(page, screenshots, "desktop-rated-room")
    assert not page.errors
