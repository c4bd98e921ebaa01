"""app/gc_tuning.py: the collector thresholds a server process runs with."""

from __future__ import annotations

import gc

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.gc_tuning import DEFAULT_THRESHOLDS, parse_thresholds, tune


def test_thresholds_parse_and_empty_keeps_cpython_defaults() -> None:
    assert parse_thresholds(DEFAULT_THRESHOLDS) == (200_000, 20, 100)
    assert parse_thresholds(" 700, 10 ,10 ") == (700, 10, 10)
    assert parse_thresholds("") is None


@pytest.mark.parametrize("bad", ["1,2", "1,2,3,4", "a,b,c", "0,10,10", "-1,10,10", "1.5,2,3"])
def test_bad_thresholds_are_refused_with_the_expected_form(bad: str) -> None:
    with pytest.raises(ValueError, match="three positive integers"):
        parse_thresholds(bad)
    with pytest.raises(ValidationError):
        Settings(gc_thresholds=bad)


def test_tune_sets_thresholds_and_freezes_what_exists() -> None:
    before = gc.get_threshold()
    try:
        tune((12_345, 20, 30))
        assert gc.get_threshold() == (12_345, 20, 30)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_tune_with_none_changes_nothing() -> None:
    before = gc.get_threshold()
    tune(None)
    assert gc.get_threshold() == before


def test_release_memory_frees_what_evicted_rooms_left_in_cycles() -> None:
    import gc
    import weakref

    from app.gc_tuning import release_memory

    class Runtime:
        pass

    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 1000)  # as the server runs: full collections rare
    try:
        rt = Runtime()
        rt.me = rt  # a cycle, as tasks and runtimes make  # type: ignore[attr-defined]
        alive = weakref.ref(rt)
        del rt
        assert alive() is not None, "a cycle outlives its last name"
        release_memory()
        assert alive() is None
    finally:
        gc.set_threshold(*before)
