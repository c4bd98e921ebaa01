"""A club's Swiss event of three rounds, four people at two a table (one pack), from
registration to the final standings, in four browsers (issue 49): the table points
on the page equal those computed in tests/browser/tournament_flow.py from the
stored results, and nobody meets the same opponent twice."""

from __future__ import annotations

import pytest

from tests.browser.tournament_flow import people_play_a_club_event

pytestmark = pytest.mark.browser


def test_four_people_play_a_clubs_swiss_event_of_three_rounds(new_page, server) -> None:
    people_play_a_club_event(new_page, server, "swiss", 3, people=4, players=2)
