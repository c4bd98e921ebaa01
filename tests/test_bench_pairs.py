"""bench/pairs.py: the order of the runs and the ratios it reports (not the runs)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

PAIRS_PATH = Path(__file__).resolve().parent.parent / "bench" / "pairs.py"


def _pairs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_pairs", PAIRS_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_side_that_runs_first_alternates_so_a_drift_falls_on_both() -> None:
    pairs = _pairs()
    orders = [pairs.pair_order(n) for n in range(1, 5)]
    assert orders == [("new", "old"), ("old", "new"), ("new", "old"), ("old", "new")]
    # over any two consecutive pairs each side runs first once
    firsts = [order[0] for order in orders]
    assert all({firsts[i], firsts[i + 1]} == {"new", "old"} for i in range(3))


def test_a_ratio_is_new_over_old_cpu_per_move_and_a_run_without_moves_is_left_out() -> None:
    pairs = _pairs()
    runs = [
        ({"server_cpu_ms_per_move": 0.9}, {"server_cpu_ms_per_move": 1.8}),
        ({"server_cpu_ms_per_move": 1.2}, {"server_cpu_ms_per_move": 0.0}),
        ({"server_cpu_ms_per_move": 1.1}, {"server_cpu_ms_per_move": 2.0}),
    ]
    assert pairs.pair_ratios(runs) == pytest.approx([0.5, 0.55])
