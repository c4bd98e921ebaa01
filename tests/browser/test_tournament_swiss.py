"""A club's Swiss event of three rounds, four people at two a table (one pack), from
registration to the final standings (issue 49): two in their own browsers, two
played for by the stand-in bot.  The table points on the page equal those computed
in tests/browser/tournament_flow.py from the stored results, and nobody meets the
same opponent twice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.tournament_flow import people_play_a_club_event
from tests.browser.tournament_flow import quick_server as quick_server  # the fixture

pytestmark = pytest.mark.browser


def test_four_people_play_a_clubs_swiss_event_of_three_rounds(
    browser: Any, quick_server: Server
) -> None:
    people_play_a_club_event(browser, quick_server, "swiss", 3, 4, players=2, browsers=2)
