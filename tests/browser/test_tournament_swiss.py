"""A club's Swiss event of three rounds, eight people at four a table, from
registration to the final standings, in eight browsers (issue 49): the table points
on the page equal those computed in tests/browser/tournament_flow.py from the
stored results."""

from __future__ import annotations

import pytest

from tests.browser.tournament_flow import eight_play_a_club_event

pytestmark = pytest.mark.browser


def test_eight_people_play_a_clubs_swiss_event_to_its_standings(new_page, server) -> None:
    eight_play_a_club_event(new_page, server, "swiss", 3)
