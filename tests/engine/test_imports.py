"""The engine's imports run one way and stay inside the standard library (STYLE.md).

Counted wherever they stand: under ``TYPE_CHECKING`` and inside functions too.
"""

from __future__ import annotations

import sys

from tests.engine.import_graph import all_imports, graph, imports_of, loops

IN_FLIGHT: list[list[str]] = []
"""Loops of work in progress elsewhere (none now: issue 30's tutorial lives in
tutorial.py, so facts.py no longer imports views.py)."""


def test_no_import_loops_in_the_engine():
    assert [group for group in loops(graph("app.engine")) if group not in IN_FLIGHT] == []


def test_deal_setup_and_information_sets_know_nothing_of_the_deal():
    """deal.py builds itself from a checked Start and builds information sets; the
    modules it uses never import it back (no TYPE_CHECKING import either)."""
    edges = graph("app.engine")
    for name in ("deal_setup", "infoset", "inference", "legal", "moves", "results", "turns"):
        assert "app.engine.deal" not in edges[f"app.engine.{name}"], name


def test_the_engine_imports_only_the_standard_library_and_itself():
    """A pure rules engine, like python-chess's core: no server, no database, no I/O."""
    for module, names in all_imports("app.engine").items():
        for name in names:
            top = name.split(".")[0]
            assert name.startswith("app.engine") or top in sys.stdlib_module_names, (module, name)


def test_the_graph_reader_sees_imports_in_functions_and_under_type_checking(tmp_path):
    """The checks above would pass vacuously if the reader missed such imports."""
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from .deal import Deal\n"
        "def f():\n"
        "    from . import legal, name\n"
    )
    known = {"pkg.deal", "pkg.legal", "pkg.mod"}
    assert imports_of("pkg.mod", source, known) >= {"pkg.deal", "pkg.legal", "pkg"}
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
