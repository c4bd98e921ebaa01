"""Which packages the room service may import (docs/architecture.md).

``app/rooms`` owns its model and speaks to storage through ``RoomStore``; ``app/db``
implements it and ``app/main.py`` wires them, so no module of ``app/rooms`` imports
``app.db`` (or ``app.api``, which maps the service's errors onto the wire).
``app/wire/`` is shared by both sides and depends on pydantic and ``app/text.py``
alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"


def imported_modules(path: Path) -> set[str]:
    """Every absolute module a file imports (relative imports resolved)."""
    package = ".".join(path.relative_to(APP.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted((APP / "rooms").glob("*.py")), ids=lambda p: p.name)
def test_the_rooms_import_neither_the_database_nor_the_api(path: Path) -> None:
    bad = {
        m for m in imported_modules(path) if m == "app.db" or m.startswith(("app.db.", "app.api"))
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_wire_depends_on_pydantic_and_the_text_rules_only() -> None:
    paths = sorted((APP / "wire").glob("*.py"))
    assert len(paths) > 1, "app/wire/ is a package of several modules"
    mods = set().union(*(imported_modules(path) for path in paths))
    ours = {m for m in mods if m.startswith("app") and not m.startswith("app.wire")}
    assert ours == {"app.text"}
    allowed = {"__future__", "json", "typing", "pydantic", "pydantic_core", "app"}
    assert {m.split(".")[0] for m in mods} <= allowed, "pydantic (and its core) only"


def test_the_scan_sees_relative_imports() -> None:
    mods = imported_modules(APP / "rooms" / "service.py")
    assert "app.rooms.store" in mods and "app.broker" in mods
