"""A club's duplicate event of eight people at four a table over two boards, from
registration to the final standings (issue 49): four people in their own browsers,
four who never come to their tables and are played for by the rooms' stand-in bot.
Each board's matchpoints on the page equal those computed in
tests/browser/tournament_flow.py from the stored results."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.tournament_flow import people_play_a_club_event
from tests.browser.tournament_flow import quick_server as quick_server  # the fixture

pytestmark = pytest.mark.browser


def test_eight_people_play_a_clubs_duplicate_event_to_its_standings(
    browser: Any, quick_server: Server
) -> None:
    people_play_a_club_event(browser, quick_server, "duplicate", 2, 8, players=4, browsers=4)
