"""What-ifs in a shared review, in Chromium (issue 31): Ann leads a review of a finished
deal and Cy follows on another page; Ann branches at a step, plays a move the real
deal did not make (the board shows the engine's position after it, on both pages,
with every legal move's expected points), takes it back and returns to the real
line.  Screenshots of both pages at each stage."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from tests.browser.conftest import DESKTOP
from tests.browser.driver import Player
from tests.browser.test_history import ORDER, room, shown
from tests.browser.test_looks import shoot

pytestmark = pytest.mark.browser
__all__ = ["room"]  # the history tests' module fixture: a finished first deal


def engine_after(record: dict[str, Any], step: int, extra: list[dict[str, Any]]) -> Deal:
    rules = RuleSet.from_dict(record["rules"])
    deal = Deal.from_position(
        rules,
        record["players"],
        record["dealer"],
        record["hands"],
        record["table"],
        record["stock"],
    )
    for m in [*record["moves"][:step], *extra]:
        deal.apply(m["card"], m["take"])
    return deal


def on_board(page: Any, deal: Deal, step: int) -> None:
    page.wait_for_selector(f"[data-testid=whatif] [data-testid=replay-board][data-step='{step}']")
    got = shown(page, "[data-testid=whatif]")
    assert got["hands"] == [sorted(h, key=ORDER.index) for h in deal.hands]
    assert got["table"] == deal.table


def test_the_leader_branches_plays_a_what_if_and_returns_and_the_follower_sees_it(
    room: dict[str, Any], screenshots: Any
) -> None:
    record = room["record"]
    ann = room["ann"]
    cy = room["pages"].new(DESKTOP, name="Cy")
    cy.goto(f"/r/{room['id']}?watch=1")
    Player(cy).wait_view()
    ann.click("[data-testid=review-picker] summary")
    ann.click("[data-testid=start-review][data-match='1'][data-deal='1']")
    ann.wait_for_selector("[data-testid=review-pane][data-driving=yes]")
    cy.click("[data-testid=join-review]")
    cy.wait_for_selector("[data-testid=review-pane][data-driving=no]")
    at = 3
    for _ in range(at):
        ann.click("[data-testid=review-pane] [data-testid=step-next]")
    cy.wait_for_selector(f"[data-testid=review-pane][data-step='{at}']")
    assert not cy.locator("[data-testid=review-branch]").count()  # only the leader branches

    ann.click("[data-testid=review-branch]")
    for page in (ann, cy):
        page.wait_for_selector("[data-testid=whatif][data-moves='0']")
        on_board(page, engine_after(record, at, []), at)
    moves = ann.locator("[data-testid=whatif-move]")
    legal = engine_after(record, at, []).legal()
    assert moves.count() == len(legal)
    for i in range(moves.count()):  # each with its expected points, a number
        float(moves.nth(i).get_attribute("data-expected") or "not a number")
    assert cy.locator("[data-testid=whatif-move]").first.is_disabled()
    shoot(ann, screenshots, "whatif-open-leader")

    real = record["moves"][at]
    pick = 0
    for i in range(moves.count()):
        b = moves.nth(i)
        took = sorted((b.get_attribute("data-take") or "").split())
        if (b.get_attribute("data-card"), took) != (real["card"], sorted(real["take"])):
            pick = i
            break
    chosen = moves.nth(pick)
    move = {
        "card": chosen.get_attribute("data-card"),
        "take": sorted((chosen.get_attribute("data-take") or "").split()),
    }
    chosen.click()
    after = engine_after(record, at, [move])
    for page in (ann, cy):
        page.wait_for_selector("[data-testid=whatif][data-moves='1']")
        on_board(page, after, at + 1)
    shoot(ann, screenshots, "whatif-played-leader")
    shoot(cy, screenshots, "whatif-played-follower")

    ann.click("[data-testid=whatif-back]")
    for page in (ann, cy):
        page.wait_for_selector("[data-testid=whatif][data-moves='0']")
    ann.click("[data-testid=whatif-return]")
    for page in (ann, cy):
        page.wait_for_selector("[data-testid=whatif]", state="detached")
        page.wait_for_selector(f"[data-testid=review-pane][data-step='{at}']")
    shoot(cy, screenshots, "whatif-returned-follower")
    for page in (ann, cy):
        page.click("[data-testid=leave-review]")
