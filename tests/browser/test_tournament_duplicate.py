"""A club's duplicate event of eight people at four a table over two boards, from
registration to the final standings, in eight browsers (issue 49): each board's
matchpoints on the page equal those computed in tests/browser/tournament_flow.py
from the stored results."""

from __future__ import annotations

import pytest

from tests.browser.tournament_flow import people_play_a_club_event

pytestmark = pytest.mark.browser


def test_eight_people_play_a_clubs_duplicate_event_to_its_standings(new_page, server) -> None:
    people_play_a_club_event(new_page, server, "duplicate", 2, people=8, players=4)
