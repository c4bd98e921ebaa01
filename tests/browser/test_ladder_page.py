"""The bot ladder's page (issue 51) once packs are played: a row per entrant with the
figures ``GET /api/ladder`` serves, its rating on the anchors' scale included, as the
page's number format writes them; and the explanation of the rating beside it."""

from __future__ import annotations

from typing import Any

import pytest

from tests import fetch
from tests.server.process import krypkasino

pytestmark = pytest.mark.browser


def shown(x: float | None) -> str:
    """A figure as the page writes it in English: up to two decimals, a true minus sign."""
    if x is None:
        return "–"
    text = f"{abs(x):,.2f}".rstrip("0").rstrip(".")
    return f"\u2212{text}" if x < 0 and text.strip("0.") else text


def test_the_ladder_page_shows_each_bots_standing_and_rating(new_page, server) -> None:
    done = krypkasino(server.database_url, "ladder", "run", "--packs", "2",
                      "--entrants", "random,greedy", timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    ladder = fetch.get(f"{server.url}/api/ladder", timeout=10).json()
    ours = {s["entrant"]: s for s in ladder["standings"] if s["entrant"] in ("random", "greedy")}
    assert set(ours) == {"random", "greedy"}
    page: Any = new_page()
    page.goto("/ladder")
    page.wait_for_selector("[data-testid=ladder-row][data-entrant=greedy]")
    for entrant, standing in ours.items():
        row = page.locator(f"[data-testid=ladder-row][data-entrant={entrant}]")
        rating = row.locator("[data-testid=ladder-rating]").inner_text()
        assert standing["rating"] is not None, "two levels that met fix the scale"
        assert rating == shown(standing["rating"]), "a level: its value, no interval"
    assert page.get_by_text("points a deal against the built-in levels").count() == 1
    assert page.errors == []
