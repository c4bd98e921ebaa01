"""static/js/jsonpatch.js under Node's test runner, checked against Python's jsonpatch.

The JS unit tests live in tests/browser/js/.  This wrapper runs them with
``node --test`` and feeds them patches between random JSON documents shaped
like views, made both by the server's own diff (app/realtime/jsondiff.py) and by
the Python ``jsonpatch`` package, so client and server agree on every patch.
Without Node the test skips on a user's machine and fails under CI=true.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonpatch

from app.realtime import jsondiff
from tests.conftest import ROOT, require_service

JS_TESTS = Path(__file__).resolve().parent / "js"
CARDS = [
    r + s
    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for s in "SHDC"
]


def _random_view(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(2, 6)
    return {
        "you": rng.choice([None, *range(n)]),
        "players": n,
        "to_move": rng.choice([None, *range(n)]),
        "hand": rng.sample(CARDS, rng.randint(0, 6)),
        "hand_counts": [rng.randint(0, 6) for _ in range(n)],
        "table": [rng.choice(CARDS) for _ in range(rng.randint(0, 14))],
        "legal": [
            {"card": rng.choice(CARDS), "take": rng.sample(CARDS, rng.randint(0, 3))}
            for _ in range(rng.randint(0, 5))
        ],
        "scores": [
            {"seat": i, "card_points": rng.randint(0, 20), "total": rng.randint(-20, 40)}
            for i in range(n)
        ],
        "last_move": rng.choice(
            [None, {"seat": 0, "card": rng.choice(CARDS), "kind": "creep", "taken": []}]
        ),
        "odd/key~name": rng.randint(0, 3),
        "stock_count": rng.randint(0, 80),
        "clock": rng.choice([None, {"seat": 1, "deadline": rng.randint(1, 10**13)}]),
    }


def test_jsonpatch_js_unit_tests_and_python_made_patches(tmp_path: Path) -> None:
    require_service(shutil.which("node") is not None, "node is not installed")
    rng = random.Random(6902)
    cases = []
    for _ in range(300):
        src, dst = _random_view(rng), _random_view(rng)
        if rng.random() < 0.5:  # small steps, like a single play
            dst = json.loads(json.dumps(src))
            dst["table"] = dst["table"][1:] + [rng.choice(CARDS)]
            dst["hand"] = dst["hand"][:-1]
            dst["to_move"] = (
                None if dst["to_move"] is None else (dst["to_move"] + 1) % dst["players"]
            )
        cases.append({"src": src, "dst": dst, "patch": jsonpatch.make_patch(src, dst).patch})
        cases.append({"src": src, "dst": dst, "patch": jsondiff.make_patch(src, dst)})
    case_file = tmp_path / "cases.json"
    case_file.write_text(json.dumps(cases))
    env = dict(os.environ, JSONPATCH_CASES=str(case_file))
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    proc = subprocess.run(
        ["node", "--test", *files], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout
