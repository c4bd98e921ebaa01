"""The tutorial's own card moves (static/js/ui/tutorial.js, run under Node) against the
engine's: after every scripted play, each hand, the table and the set-aside pictures
the learner sees are exactly the engine's, packet and end award included. Skipped
without Node (the browser test plays the tutorial through in Chromium)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from tests.conftest import ROOT

SCRIPT = json.loads((ROOT / "static" / "tutorial" / "tutorial.json").read_text(encoding="utf-8"))

NODE_JS = """
import { readFileSync } from "node:fs";
import { startState, applyNext } from "./static/js/ui/tutorial.js";
const script = JSON.parse(readFileSync("static/tutorial/tutorial.json", "utf8"));
const sort = (cards) => [...cards].sort();
const seen = (s) => ({ hands: s.hands.map(sort), table: sort(s.table),
                       spades: sort(s.spades), other: sort(s.other) });
let state = startState(script);
const out = [seen(state)];
while (state.next < script.moves.length) { state = applyNext(script, state); out.push(seen(state)); }
console.log(JSON.stringify(out));
"""


def engine_positions() -> list[dict[str, Any]]:
    deal = Deal.from_position(
        RuleSet.from_dict(SCRIPT["rules"]),
        SCRIPT["players"],
        SCRIPT["dealer"],
        SCRIPT["hands"],
        SCRIPT["table"],
        SCRIPT["stock"],
    )

    def seen() -> dict[str, Any]:
        return {
            "hands": [sorted(h) for h in deal.hands],
            "table": sorted(deal.table),
            "spades": sorted(deal.set_aside_spades),
            "other": sorted(deal.set_aside_other),
        }

    out = [seen()]
    for m in SCRIPT["moves"]:
        deal.apply(m["card"], m["take"])
        out.append(seen())
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_tutorial_moves_the_cards_as_the_engine_does() -> None:
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_JS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    js = json.loads(proc.stdout)
    engine = engine_positions()
    assert len(js) == len(engine) == len(SCRIPT["moves"]) + 1
    for i, (mine, theirs) in enumerate(zip(js, engine)):
        assert mine == theirs, f"after move {i}"
