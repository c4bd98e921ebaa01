"""The tutorial's client (static/js/ui/tutorial.js, run under Node) shows the engine's
positions as they are: for every position of the tutorial the server serves
(app/engine/tutorial.py, GET /api/tutorial), the view the page's table reads holds the
engine's hands, table, pictures set aside, packets, log, scores and legal play,
unchanged, and the learner's play moves on exactly when it is the step's card.
The same holds for a tutorial the client has never seen (suits swapped), so nothing
in the module knows the deal.  Skipped without Node (the browser test plays the
tutorial through in Chromium)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.engine.tutorial import TUTORIAL, tutorial
from tests.conftest import ROOT

NODE_JS = """
import { readFileSync } from "node:fs";
import { frameView, nextMove, afterPlay } from "./static/js/ui/tutorial.js";
const tut = JSON.parse(readFileSync(process.env.TUTORIAL_JSON, "utf8"));
const out = [];
for (let k = 0; k < tut.frames.length; k++) {
  const move = nextMove(tut, k);
  const view = frameView(tut, k, "Ann");
  const tries = move ? view.hand.map((c) => [c, afterPlay(tut, k, c)]) : [];
  out.push({ view, move, tries });
}
console.log(JSON.stringify(out));
"""

SWAP = str.maketrans({"H": "C", "C": "H"})


def swapped_script() -> dict[str, Any]:
    """The tutorial's deal with hearts and clubs swapped: every play does the same."""

    def sw(card: str) -> str:
        return card[:-1] + card[-1].translate(SWAP)

    return {
        **TUTORIAL,
        "hands": [[sw(c) for c in h] for h in TUTORIAL["hands"]],
        "table": [sw(c) for c in TUTORIAL["table"]],
        "stock": [sw(c) for c in TUTORIAL["stock"]],
        "moves": [(sw(c), tuple(sw(x) for x in take), step) for c, take, step in TUTORIAL["moves"]],
    }


def run_client(tut: dict[str, Any], tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "tutorial.json"
    path.write_text(json.dumps(tut), encoding="utf-8")
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_JS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "TUTORIAL_JSON": str(path)},
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("script", ["served", "swapped"])
def test_the_tutorial_shows_the_engines_positions_unchanged(script: str, tmp_path: Path) -> None:
    tut = tutorial() if script == "served" else tutorial(swapped_script())
    shown = run_client(tut, tmp_path)
    assert len(shown) == len(tut["frames"])
    for k, (mine, frame) in enumerate(zip(shown, tut["frames"], strict=True)):
        view = mine["view"]
        for key, value in frame["view"].items():
            assert view[key] == value, (k, key)
        assert view["rules"] == tut["rules"] and view["status"] == "playing"
        assert [s["name"] for s in view["seats"]] == ["Ann", "bot"]
        assert mine["move"] == frame["move"]
        move = frame["move"]
        for card, after in mine["tries"]:
            if move["seat"] != tut["you"]:
                assert after == {"k": k, "refused": "bot_thinking"}
            elif card == move["card"]:
                assert after == {"k": k + 1, "refused": None}
            else:
                assert after == {"k": k, "refused": "wrong"}
    if script == "swapped":
        assert tut["frames"][0]["view"]["set_aside_other"] == ["KC"]
