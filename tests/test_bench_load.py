"""bench/load.py's own patch applier against the jsonpatch library.

The load generator applies every patch its seats receive; it does so with a
small applier of its own (cheaper than jsonpatch, so the generators take
less of the machine the server is measured on).  A patch it applied wrongly
would leave a seat with the wrong legal moves and the benchmark refused, so
here both appliers take the diffs of whole played deals, as the server makes
them, and must agree view for view."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import jsonpatch
import pytest

from app.engine.match import Match
from app.engine.rules import RuleSet
from app.engine.views import match_view
from app.realtime.jsondiff import make_patch
from app.simulation import random_deal

LOAD_PATH = Path(__file__).resolve().parents[1] / "bench" / "load.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", LOAD_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 2), (6, 3)])
def test_the_generators_applier_agrees_with_jsonpatch_over_whole_deals(
    players: int, seed: int
) -> None:
    apply_ops = load_bench().apply_ops
    rng = random.Random(seed)
    rules = RuleSet()
    match = Match(rules, players, 0)
    deal = random_deal(rules, players, rng)
    views = {seat: match_view(match, deal, seat, "playing", 1) for seat in (0, None)}
    held = {seat: copy.deepcopy(v) for seat, v in views.items()}
    patches = 0
    while not deal.is_over:
        move = rng.choice(deal.legal_moves())
        deal.apply(move.card, move.take)
        for seat in views:
            new = match_view(match, deal, seat, "playing", 1)
            ops = json.loads(json.dumps(make_patch(views[seat], new)))
            expected = jsonpatch.apply_patch(held[seat], ops, in_place=False)
            held[seat] = apply_ops(held[seat], ops)
            assert held[seat] == expected == json.loads(json.dumps(new))
            views[seat] = new
            patches += 1
    assert patches > 20


def test_an_operation_the_server_never_makes_is_refused() -> None:
    apply_ops = load_bench().apply_ops
    with pytest.raises(ValueError, match="unexpected operation"):
        apply_ops({"a": [1]}, [{"op": "move", "from": "/a/0", "path": "/b"}])
    assert apply_ops({"a": [1, 2]}, [{"op": "remove", "path": "/a/0"}]) == {"a": [2]}
    assert apply_ops(
        {"a~b": {"c/d": 1}}, [{"op": "replace", "path": "/a~0b/c~1d", "value": 2}]
    ) == {"a~b": {"c/d": 2}}
