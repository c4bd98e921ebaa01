"""The rating change on a rated match's result, and a new player's provisional rating,
in Chromium (issue 47, finding 7).

A new account plays a rated match against a bot to the end in the browser (one pack,
one deal): the result shows the person's new rating and its ± change, as the server
rated it, marked "?" (provisional); the profile and the leaderboard show the same
provisional, never negative, rating (the cautious mu - 3 sigma, which may be negative
after a first loss, has its own column).  Screenshots at phone and desktop sizes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.driver import Player
from tests.browser.test_looks import shoot
from tests.browser.test_ratings import _signed_in
from tests.server.test_ratings import Person, _rated

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"REGISTER_PER_HOUR": "0", "LEADERBOARD_MIN_MATCHES": "1"}
    srv = Server(tmp_path_factory.mktemp("rating-change-server"), env=env)
    yield srv
    srv.stop()


def _shown(mu: float) -> str:
    """A rating as the page writes it in English: one decimal at most, then "?"."""
    return f"{round(mu, 1):g}?"


def _delta(change: float) -> str:
    d = round(change, 1)
    return f"+{d:g}" if d > 0 else f"\u2212{-d:g}" if d < 0 else "±0"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_rated_match_ends_with_the_rating_change_and_a_provisional_rating(
    new_page: Any, screenshots: Any, server: Server, size: str
) -> None:
    person = Person(server.url, f"New{size}")
    room = person.create(bots=1, bot_level="greedy", bot_delay=0)
    page = new_page(PHONE if size == "phone" else DESKTOP)
    _signed_in(page, person, server)
    page.goto("/")
    page.evaluate(
        "([id, s]) => localStorage.setItem('krypkasino.seat.' + id, JSON.stringify(s))",
        [room["room_id"], {"token": room["token"], "seat": room["seat"], "name": person.username}],
    )
    page.goto(f"/r/{room['room_id']}")
    me = Player(page)
    me.wait_view()
    assert me.play_until_summary() > 0
    page.wait_for_function("() => window.__krypkasino.store.get().view.status === 'finished'")

    mine = page.locator("[data-testid=rating-result] [data-testid=rating-seat].me")
    mine.wait_for()
    rating = _rated(person)
    url = f"{server.url}/api/rooms/{room['room_id']}/matches/1/rating"
    result = fetch.get(url, timeout=10).json()
    seat = next(s for s in result["seats"] if s["seat"] == room["seat"])
    assert rating["mu"] == seat["after"]["mu"] > 0
    assert mine.locator("[data-k=after]").inner_text() == _shown(seat["after"]["mu"])
    assert mine.locator("[data-k=change]").inner_text() == _delta(seat["change"])
    assert page.locator("[data-testid=rating-seat]").count() == 1  # the bot is not listed
    assert page.locator("[data-testid=rating-pending]").count() == 0
    shoot(page, screenshots, f"{size}-rating-change")

    page.goto(f"/players/{person.username}")
    cell = page.locator("[data-testid=profile-ratings] tr[data-players='2'] [data-k=rating]")
    cell.wait_for()
    assert cell.inner_text() == _shown(seat["after"]["mu"])  # "21.6?", never "−1.8"
    assert cell.locator("abbr.provisional").get_attribute("title")
    recent = page.locator("[data-testid=rating-change]").first
    assert _delta(seat["change"]) in recent.inner_text()
    shoot(page, screenshots, f"{size}-profile-provisional")

    page.goto("/leaderboard?players=2")
    row = page.locator(f"[data-testid=leader-row][data-username={person.username}]")
    row.wait_for()
    assert row.locator("[data-k=rating]").inner_text() == _shown(seat["after"]["mu"])
    assert not page.errors
