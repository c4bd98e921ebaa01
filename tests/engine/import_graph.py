"""The import graph of a package, read from its source: what a module may import.

Every import counts, wherever it stands: at the top, under ``TYPE_CHECKING``
(a loop hidden there is still a loop, STYLE.md) and inside a function.  An
``import`` of a package names the package (its ``__init__``), so
``from . import x`` where ``x`` is a submodule names ``x``, while
``from . import name`` of anything else names the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_files(package: str) -> dict[str, Path]:
    """Every module of ``package`` (dotted name) by dotted name."""
    base = ROOT.joinpath(*package.split("."))
    out: dict[str, Path] = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The dotted names ``name`` imports anywhere in its source."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here.split(".")
                parts = parts[: len(parts) - node.level + 1]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    return out


def graph(*packages: str) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports (itself left out)."""
    files: dict[str, Path] = {}
    for package in packages:
        files.update(module_files(package))
    known = set(files)
    return {
        name: {t for t in imports_of(name, path, known) if t in known and t != name}
        for name, path in files.items()
    }


def all_imports(package: str) -> dict[str, set[str]]:
    """Module of ``package`` -> every dotted name it imports (any package)."""
    files = module_files(package)
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def loops(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import loops: strongly connected groups of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found
