"""Provisional ratings (issue 47): what people are shown is ``mu`` marked "?" while
``sigma`` is above PROVISIONAL_SIGMA, so that a new player's first rating is never the
negative mu - 3 sigma of a first loss.  Pure: the model only."""

from __future__ import annotations

from app.ratings.model import BOT_ANCHORS, NEW, PROVISIONAL_SIGMA, Skill, rate


def test_a_new_rating_is_provisional_and_settles_after_a_few_matches() -> None:
    assert NEW.provisional and NEW.mu == 25
    lost = rate([NEW, BOT_ANCHORS["greedy"]], [1, 0])[0]
    assert lost.ordinal < 0 < lost.mu  # the cautious figure is negative, the shown one not
    assert lost.provisional
    skill, matches = NEW, 0
    while skill.provisional:
        skill = rate([skill, BOT_ANCHORS["greedy"]], [matches % 2, 1 - matches % 2])[0]
        matches += 1
    assert 4 <= matches <= 6  # about five matches against one bot
    assert skill.sigma <= PROVISIONAL_SIGMA
    assert not Skill(25.0, PROVISIONAL_SIGMA).provisional
    assert all(not anchor.provisional for anchor in BOT_ANCHORS.values())
