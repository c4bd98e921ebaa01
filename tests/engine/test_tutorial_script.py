"""The tutorial's deal (app/engine/tutorial.py: TUTORIAL, tutorial()) as the engine plays it.

The browser shows the tutorial's positions as GET /api/tutorial serves them, and
``tutorial()`` builds them by playing the script through ``Deal``: every position is
the game's own view.  What these tests add is that the deal teaches what its texts
(static/rules/<lang>.json, ``tutorial``) say: the pictures set aside at the start,
each step's play doing what its text explains (creep, sum, maximal capture, forced
sweep, ...), the packet, the end award and the final scores.  A script whose play is
not legal, or whose steps are not on the learner's plays, is refused.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.tutorial import TUTORIAL, TUTORIAL_SEAT, tutorial
from app.engine.views import deal_view
from app.resources import static_dir

LANGS = ("en", "sv", "nb", "fr", "es", "pt")
TUTOR = tutorial()
FRAMES: list[dict[str, Any]] = TUTOR["frames"]
MOVES = [f["move"] for f in FRAMES[:-1]]
BY_STEP = {m["step"]: m for m in MOVES if m["step"]}


def opening() -> Deal:
    return Deal.from_position(
        RuleSet.from_dict(TUTORIAL["rules"]),
        TUTORIAL["players"],
        TUTORIAL["dealer"],
        TUTORIAL["hands"],
        TUTORIAL["table"],
        TUTORIAL["stock"],
    )


def test_the_opening_sets_the_pictures_aside_that_the_intro_names() -> None:
    start = FRAMES[0]["view"]
    assert start["set_aside_spades"] == ["JS"] and start["set_aside_other"] == ["KH"]  # R2.4
    assert not any(c[:-1] in "JQK" for c in start["table"])
    assert start["to_move"] == TUTORIAL_SEAT == TUTOR["you"], "the learner leads"


def test_every_frame_is_the_games_own_view_of_the_replayed_deal() -> None:
    """Replayed independently here: each frame's view is ``deal_view`` for the learner
    (the game's view), but for ``legal``, which offers only the scripted play."""
    deal = opening()
    assert len(FRAMES) == len(TUTORIAL["moves"]) + 1
    for i, frame in enumerate(FRAMES):
        own = deal_view(deal, TUTORIAL_SEAT)
        view = dict(frame["view"])
        legal = view.pop("legal")
        own_legal = own.pop("legal")
        assert view == own, f"frame {i}"
        move = frame["move"]
        if move is None:
            assert deal.is_over and legal == []
            break
        if move["seat"] == TUTORIAL_SEAT:
            chosen = [m for m in own_legal if m["card"] == move["card"]]
            assert legal == [m for m in chosen if Counter(m["take"]) == Counter(move["take"])]
            assert len(legal) == 1
        else:
            assert legal == []
        result = deal.apply(move["card"], move["take"])
        assert result.kind == move["kind"], f"move {i}"


def test_each_step_does_what_its_text_explains() -> None:
    assert TUTOR["steps"] == ["creep", "sum", "maximal", "ace", "forced", "twin", "last"]
    assert BY_STEP["creep"]["kind"] == "creep" and not BY_STEP["creep"]["forced"]
    assert BY_STEP["sum"]["kind"] == "capture" and sorted(BY_STEP["sum"]["take"]) == ["3H", "5C"]
    # R3.3: the 9 takes both groups, 9 and 2 + 7
    assert BY_STEP["maximal"]["kind"] == "capture" and len(BY_STEP["maximal"]["take"]) == 3
    assert BY_STEP["maximal"]["points"] == 1  # the 9 of spades itself (R6.1)
    assert BY_STEP["ace"]["kind"] == "creep"  # an empty table cannot be swept (R4.5)
    assert BY_STEP["forced"]["kind"] == "sweep" and BY_STEP["forced"]["forced"]  # R4.1
    assert BY_STEP["forced"]["sweep"] == 5
    # R4.3: the 5 of hearts avoids the double sweep its twin would make, but must sweep
    assert BY_STEP["twin"]["kind"] == "sweep" and BY_STEP["twin"]["forced"]
    twin_frame = FRAMES[MOVES.index(BY_STEP["twin"])]["view"]
    assert "5D" in twin_frame["hand"] and twin_frame["table"] == ["5D"]
    assert BY_STEP["last"]["kind"] == "creep"
    # the bot's sweep empties the hands: the packet comes before the "ace" step
    ace = FRAMES[MOVES.index(BY_STEP["ace"])]["view"]
    assert ace["packets"] == [{"after": 6, "size": 8, "left": 0, "last": True}]
    assert ace["last_packet"] and ace["scores"][TUTORIAL_SEAT]["sweeps_conceded"] == 1


def test_the_deal_ends_as_the_done_text_says() -> None:
    end = FRAMES[-1]["view"]
    assert end["deal_over"] and FRAMES[-1]["move"] is None
    bot = 1 - TUTORIAL_SEAT
    assert end["award"] == {"seat": bot, "cards": ["10D", "JS"]}  # R5.1
    totals = [s["total"] for s in end["scores"]]
    assert sum(totals) == end["total_points"] == 7  # R6.3
    assert totals == [7, 0]


def test_the_learner_plays_six_to_eight_guided_steps() -> None:
    steps = [m["step"] for m in MOVES if m["seat"] == TUTORIAL_SEAT]
    assert 6 <= len(steps) <= 8 and len(set(steps)) == len(steps) and all(steps)
    assert all(m["step"] is None for m in MOVES if m["seat"] != TUTORIAL_SEAT)


def test_a_script_with_an_illegal_play_or_a_misplaced_step_is_refused() -> None:
    bad = dict(TUTORIAL, moves=[("8C", (), "creep"), *TUTORIAL["moves"][1:]])  # 8 must take 3+5
    with pytest.raises(ValueError, match="not legal"):
        tutorial(bad)
    bad = dict(TUTORIAL, moves=[("2D", (), None), *TUTORIAL["moves"][1:]])
    with pytest.raises(ValueError, match="step"):
        tutorial(bad)
    with pytest.raises(ValueError, match="finish"):
        tutorial(dict(TUTORIAL, moves=TUTORIAL["moves"][:-1]))


def test_the_tutorial_is_json() -> None:
    assert json.loads(json.dumps(TUTOR)) == TUTOR


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_is_explained_in_every_language(lang: str) -> None:
    path = static_dir() / "rules" / f"{lang}.json"
    texts = json.loads(path.read_text(encoding="utf-8"))["tutorial"]
    assert set(texts["steps"]) == set(TUTOR["steps"])
    for key in ("title", "intro", "wrong", "bot_thinking", "done_title", "done", "play_real"):
        assert texts[key].strip(), key
