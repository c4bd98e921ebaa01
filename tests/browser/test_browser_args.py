"""The suite's Chromium arguments (tests/browser/conftest.py): the address bar's
popups are never made, and Playwright's own disabled features stay disabled."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.conftest import PLAYWRIGHT_DISABLED_FEATURES, UNSEEN_BROWSER_UI


def playwright_disabled_features() -> set[str]:
    """The features the installed Playwright driver turns off, read from its source."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    found = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(), re.S)
    assert found, f"no disabledFeatures list in {bundle}: read how this Playwright disables"
    listed = re.findall(r'^\s*"(\w+)"', found.group(1), re.M)
    return {name for name in listed if not name.startswith("ms")}  # Edge's own


def test_our_disable_features_keeps_every_one_playwright_disables() -> None:
    """A second --disable-features replaces Playwright's: ours must repeat them all."""
    assert playwright_disabled_features() <= set(PLAYWRIGHT_DISABLED_FEATURES.split(","))


def test_a_new_context_makes_no_address_bar_popup(browser: Any) -> None:
    context = browser.new_context()
    try:
        context.new_page().goto("data:text/html,<p>a page</p>")
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        session.detach()
    finally:
        context.close()
    urls = [t["url"] for t in targets]
    assert any(u.startswith("data:") for u in urls), urls
    assert not [u for u in urls if "omnibox" in u], (UNSEEN_BROWSER_UI, urls)
