"""axe-core on what a signed-in person sees (issue 50): the lobby's account panel, their
clubs, a club's page with the owner's controls and its invite link, and their profile,
in both themes, normal and high contrast, at phone and laptop sizes.  The guest's pages
are swept by tests/browser/test_a11y_pages.py."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Server
from tests.browser.test_clubs import signed_up
from tests.browser.test_looks import THEMED, axe_problems
from tests.browser.waits import SETTLED_JS, WAIT_MS

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


@pytest.fixture(scope="module")
def person(browser: Any, server: Server) -> Iterator[tuple[str, str, list[Any]]]:
    """One signed-up person owning a club with an invite link, made once for the four
    themes' checks: their name, the club's path and the session's cookies."""
    ctx = browser.new_context(viewport=DESKTOP, base_url=server.url, locale="en-GB")
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        name = f"Ann_{secrets.token_hex(3)}"
        signed_up(page, name)
        club = a_club_with_its_link(page)
        yield name, club, ctx.storage_state()["cookies"]
    finally:
        ctx.close()


@pytest.mark.parametrize("contrast", ["normal", "high"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_serious_axe_violation_where_a_person_is_signed_in(new_page, person, theme, contrast):
    """Each page loaded once and looked at in both sizes (loaded in one, then resized);
    every axe rule in the light normal theme, the theme-dependent ones in the others."""
    name, club, cookies = person
    problems: dict[str, list[str]] = {}
    everything = (theme, contrast) == ("light", "normal")
    sizes = {"phone": PHONE, "laptop": DESKTOP}
    page = new_page(PHONE)
    page.context.add_cookies(cookies)
    settings = json.dumps({"theme": theme, "contrast": contrast})
    page.add_init_script(f"localStorage.setItem('krypkasino.settings', {json.dumps(settings)})")
    for n, path in enumerate(("/", "/clubs", club, f"/players/{name}", "/continue")):
        order = ["phone", "laptop"] if n % 2 == 0 else ["laptop", "phone"]
        page.set_viewport_size(sizes[order[0]])
        page.goto(path)
        page.get_by_role("main").first.wait_for(timeout=60000)  # slow to boot when busy
        page.wait_for_load_state("networkidle")
        if path == club:
            page.wait_for_selector(f"[data-testid=club-member][data-username='{name}']")
        for size in order:
            if size != order[0]:
                page.set_viewport_size(sizes[size])
                page.evaluate(SETTLED_JS)
            found = axe_problems(page, None if everything else THEMED)
            if found:
                problems[f"{size} {theme} {contrast} {path}"] = found
    assert not page.errors, page.errors
    assert not problems, json.dumps(problems, indent=1)
