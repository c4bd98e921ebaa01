"""Screenshots at phone and desktop size, and an axe-core accessibility check.

Every run writes the screenshots to test-artifacts/screenshots/ (see
docs/client.md) so a person can look at the lobby, the waiting room, the
table and the deal summary at 360x740 and 1440x900, light and dark.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.driver import Player, create_room

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"

THEMED = ("color-contrast", "link-in-text-block", "scrollable-region-focusable")
"""The serious rules whose outcome a theme or the large print can change: colours, and
what overflows.  Every other rule (names, roles, landmarks, labels, lists) reads the
markup, the same in every theme: it runs in the light normal theme only, with these."""


def axe_problems(page: Any, rules: Sequence[str] | None = None) -> list[str]:
    """Serious and critical axe-core violations on the page as it is now (of ``rules``
    only, when given: axe's rule ids)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script>: the page's CSP allows no inline script,
        # and what the test driver evaluates is not subject to it.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        """async (rules) => {
        const only = rules ? {runOnly: {type: 'rule', values: rules}} : {};
        const r = await axe.run(document, {...only, resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""",
        None if rules is None else list(rules),
    )
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}"
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshots_and_no_serious_accessibility_problems(new_page, screenshots, size):
    viewport = PHONE if size == "phone" else DESKTOP
    problems: dict[str, list[str]] = {}

    # The lobby, light and dark.
    page = new_page(viewport)
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    shoot(page, screenshots, f"{size}-lobby-light")
    problems["lobby"] = axe_problems(page)
    page.emulate_media(color_scheme="dark")
    shoot(page, screenshots, f"{size}-lobby-dark")
    problems["lobby dark"] = axe_problems(page)

    # A waiting room with its invite and spectator links.
    waiting = new_page(viewport)
    create_room(waiting, "Ann", players=4, bots=1)
    waiting.wait_for_selector("[data-testid=waiting-room]")
    shoot(waiting, screenshots, f"{size}-waiting-light")
    problems["waiting room"] = axe_problems(waiting)

    # A table mid-deal: three players, a few plays in.
    table = new_page(viewport)
    create_room(table, "Ann", players=3, bots=2)
    me = Player(table)
    me.wait_view()
    for _ in range(6):
        me.wait_ready()
        me.play_turn(prefer_creep=True)
    me.wait_ready()
    shoot(table, screenshots, f"{size}-table-light")
    problems["table"] = axe_problems(table)
    table.emulate_media(color_scheme="dark")
    shoot(table, screenshots, f"{size}-table-dark")
    problems["table dark"] = axe_problems(table)
    table.emulate_media(color_scheme="light")

    # The choice among several captures, when one turns up within the deal.
    for _ in range(40):
        if me.wait_ready() == "summary":
            break
        view = me.view
        multi = [m["card"] for m in view["legal"] if len(me.options(view, m["card"])) > 1]
        if multi:
            me.click_card(multi[0])
            table.wait_for_selector("[data-testid=chooser]")
            shoot(table, screenshots, f"{size}-choice-light")
            problems["choice"] = axe_problems(table)
            table.keyboard.press("Escape")
            break
        me.play_turn(prefer_creep=True)

    # The end of a deal: a short single-pack match against a bot.
    end = new_page(viewport)
    create_room(end, "Ann", players=2, bots=1, rules=("single_pack",), match_deals=1)
    finisher = Player(end)
    finisher.wait_view()
    finisher.play_until_summary()
    end.wait_for_function("() => window.__krypkasino.store.get().view.status === 'finished'")
    shoot(end, screenshots, f"{size}-summary-light")
    problems["summary"] = axe_problems(end)
    end.emulate_media(color_scheme="dark")
    shoot(end, screenshots, f"{size}-summary-dark")
    problems["summary dark"] = axe_problems(end)

    found = {k: v for k, v in problems.items() if v}
    assert not found, "\n".join(f"{k}: {p}" for k, v in found.items() for p in v)
    for p in (page, waiting, table, end):
        assert not p.errors


def test_warning_badges_keep_their_contrast_in_light_and_dark(new_page) -> None:
    """The forced-sweep badge and the running-out clock appear only in some deals,
    so the random table above may miss them: check their colours directly."""
    page = new_page(DESKTOP)
    page.goto("/")
    page.wait_for_selector("[data-testid=create-form]")
    page.evaluate("""() => {
        const box = document.createElement('main');
        box.innerHTML = '<span class="forced">Forced sweep</span> <span class="clock urgent">0:05</span>';
        document.body.appendChild(box);
    }""")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found = [p for p in axe_problems(page) if ".forced" in p or ".urgent" in p]
        assert found == [], f"{scheme}: {found}"
