"""The tutorial's deal (static/tutorial/tutorial.json) replayed through the engine.

The browser runs the tutorial alone, without a server room, so nothing at run time
checks what it teaches. This test does: every play in the script must be legal, each
"forced" step must leave no other choice, and every result the script states (the kind
of each play, what it took, the running scores, the packet, the pictures set aside,
the end award and the final scores) must be what the engine says. So the tutorial
cannot teach a rule the engine does not play.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from app.engine.deal import Deal, Move
from app.engine.rules import RuleSet
from app.resources import static_dir

SCRIPT: dict[str, Any] = json.loads(
    (static_dir() / "tutorial" / "tutorial.json").read_text(encoding="utf-8")
)
LANGS = ("en", "sv", "nb", "fr", "es", "pt")


def opening() -> Deal:
    return Deal.from_position(
        RuleSet.from_dict(SCRIPT["rules"]),
        SCRIPT["players"],
        SCRIPT["dealer"],
        SCRIPT["hands"],
        SCRIPT["table"],
        SCRIPT["stock"],
    )


def test_the_opening_sets_the_stated_pictures_aside() -> None:
    deal = opening()
    assert sorted(deal.set_aside_spades) == sorted(SCRIPT["set_aside"]["spades"])  # R2.4
    assert sorted(deal.set_aside_other) == sorted(SCRIPT["set_aside"]["other"])
    assert deal.to_move == 0, "the learner leads (left of the dealer)"


def test_every_play_is_legal_and_every_stated_result_is_the_engines() -> None:
    deal = opening()
    for i, step in enumerate(SCRIPT["moves"]):
        assert deal.to_move == step["seat"], f"move {i}: wrong seat"
        legal = deal.legal_moves()
        move = Move.of(step["card"], step["take"])
        assert move in legal, f"move {i}: {move} is not legal; legal: {legal}"
        if step.get("forced"):
            table = Counter(deal.table)
            assert all(Counter(m.take) == table for m in legal), f"move {i}: not forced (R4.1)"
        result = deal.apply(step["card"], step["take"])
        assert result.kind == step["kind"], f"move {i}"
        assert sorted(result.taken) == sorted(step["take"]), f"move {i}"
        assert result.packet_dealt == bool(step.get("packet")), f"move {i}: packet"
        assert deal.totals() == step["scores"], f"move {i}: running scores"
    assert deal.is_over
    end = SCRIPT["end"]
    assert deal.award is not None
    award = deal.award.to_dict()
    assert award["seat"] == end["award"]["seat"]
    assert sorted(award["cards"]) == sorted(end["award"]["cards"])
    for seat, stated in enumerate(end["scores"]):
        actual = deal.scores_list()[seat]
        assert {k: actual[k] for k in stated} == stated, f"seat {seat}"
    # R6.3: the deal scores add up to the card points in play.
    assert deal.total_points() == end["total_points"] == sum(s["total"] for s in end["scores"])


def test_the_learner_plays_six_to_eight_guided_steps() -> None:
    steps = [m["step"] for m in SCRIPT["moves"] if m["seat"] == 0]
    assert 6 <= len(steps) <= 8 and len(set(steps)) == len(steps)
    assert all("step" not in m for m in SCRIPT["moves"] if m["seat"] != 0)


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_is_explained_in_every_language(lang: str) -> None:
    path = static_dir() / "rules" / f"{lang}.json"
    texts = json.loads(path.read_text(encoding="utf-8"))["tutorial"]
    steps = {m["step"] for m in SCRIPT["moves"] if "step" in m}
    assert set(texts["steps"]) == steps
    for key in ("title", "intro", "wrong", "bot_thinking", "done_title", "done", "play_real"):
        assert texts[key].strip(), key
