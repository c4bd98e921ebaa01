"""axe-core on what a signed-in person sees (issue 50): the lobby's account panel, their
clubs, a club's page with the owner's controls and its invite link, and their profile,
in both themes, normal and high contrast, at phone and laptop sizes.  The guest's pages
are swept by tests/browser/test_a11y_pages.py."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_clubs import signed_up
from tests.browser.test_looks import axe_problems

pytestmark = pytest.mark.browser


def a_club_with_its_link(page: Any) -> str:
    """A club the page's person owns, with an invite link made: its page's path."""
    page.goto("/clubs")
    page.get_by_label("Name", exact=True).fill(f"Kasino {secrets.token_hex(3)}")
    page.click("[data-testid=club-make]")
    page.wait_for_url("**/clubs/*")
    page.click("[data-testid=club-invite-new]")
    page.wait_for_selector("[data-testid=club-invite-link]")
    return str(page.evaluate("() => location.pathname"))


@pytest.mark.parametrize("contrast", ["normal", "high"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_serious_axe_violation_where_a_person_is_signed_in(new_page, theme, contrast):
    name = f"Ann_{secrets.token_hex(3)}"
    problems: dict[str, list[str]] = {}
    first = True
    for size, viewport in (("phone", PHONE), ("laptop", DESKTOP)):
        page = new_page(viewport)
        settings = json.dumps({"theme": theme, "contrast": contrast})
        page.add_init_script(f"localStorage.setItem('krypkasino.settings', {json.dumps(settings)})")
        if first:
            signed_up(page, name)
            club = a_club_with_its_link(page)
            state = page.context.storage_state()
            first = False
        else:
            page.context.add_cookies(state["cookies"])
        for path in ("/", "/clubs", club, f"/players/{name}", "/continue"):
            page.goto(path)
            page.get_by_role("main").first.wait_for(
                timeout=60000
            )  # a page boots slowly on a busy machine
            page.wait_for_load_state("networkidle")
            if path == club:
                page.wait_for_selector(f"[data-testid=club-member][data-username='{name}']")
            found = axe_problems(page)
            if found:
                problems[f"{size} {theme} {contrast} {path}"] = found
        assert not page.errors, page.errors
    assert not problems, json.dumps(problems, indent=1)
