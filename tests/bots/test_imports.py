"""The bots' imports run one way: no loops, and no submodule imports the package face.

``app/bots/__init__.py`` only re-exports ``levels.py``; a submodule that imported
the package back would make a loop through it (STYLE.md: a package pair that
imports each other).  Counted wherever imports stand, functions included.
"""

from __future__ import annotations

import ast

from tests.engine.import_graph import all_imports, graph, loops, module_files


def test_no_import_loops_through_the_bots():
    """Counting the engine's modules too: no loop passes through a bot module."""
    through = [
        group
        for group in loops(graph("app.bots", "app.engine"))
        if any(m.startswith("app.bots") for m in group)
    ]
    assert through == []


def test_bot_modules_import_their_siblings_by_module_not_through_the_package():
    """``from . import greedy`` reaches the sibling through the package face;
    ``from .greedy import ...`` names the module itself."""
    for name, path in module_files("app.bots").items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.module, (name, [a.name for a in node.names])


def test_no_bot_module_imports_the_package_itself():
    edges = graph("app.bots")
    for module, targets in edges.items():
        if module != "app.bots":
            assert "app.bots" not in targets, module


def test_the_package_only_re_exports_the_entry_points():
    assert graph("app.bots")["app.bots"] == {"app.bots.levels"}


def test_bots_use_the_engine_and_nothing_of_the_server():
    for module, names in all_imports("app.bots").items():
        for name in names:
            assert not name.startswith(("app.rooms", "app.api", "app.db", "app.realtime")), (
                module,
                name,
            )
