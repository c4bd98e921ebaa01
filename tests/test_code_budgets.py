"""Budgets the code keeps (issue 48), read from the source of ``app/``.

- Blind excepts (``except Exception``/``BaseException``/bare, not re-raised) at most
  ``BLIND_EXCEPTS``, each saying why on its line or the comment beside it: each is
  a task boundary (a loop that must outlive a failed round, a socket that must
  outlive a bug), and a new one needs a reason good enough to raise the budget.
- Loose dicts (``dict[str, Any]``: a dict whose values are ``Any``, whatever its
  key) at most ``LOOSE_DICTS``: a ratchet.  Typed answers (``TypedDict``s,
  dataclasses) and the JSON types of app/core/json.py brought it from 117 to this
  (issue 48 aimed at 40); the count may fall, never rise.  It is read from the
  syntax, not the text, so that no spelling hides one: ``typing.Dict``, ``Any``
  under another name (``from typing import Any as Whatever``, ``import typing as
  t``, a module's own ``Anything = Any``), a quoted ``"Any"``, and every use of an
  alias (``Body = dict[str, Any]``, here or imported) counts.
- ``Mapping[str, Any]`` (and ``MutableMapping``) at most ``LOOSE_MAPPINGS``, the same
  way: a loose dict is not made tight by being renamed a mapping.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
BLIND_EXCEPTS = 20
LOOSE_DICTS = 14
LOOSE_MAPPINGS = 22

ANY = {"typing.Any", "typing_extensions.Any"}
DICT = {"builtins.dict", "typing.Dict", "typing_extensions.Dict"}
MAPPING = {
    f"{module}.{name}"
    for module in ("typing", "typing_extensions", "collections.abc")
    for name in ("Mapping", "MutableMapping")
}


def blind_in(source: str) -> Iterator[tuple[int, list[str]]]:
    """(line, the lines around it) of every handler in ``source`` that catches
    everything and does not re-raise."""
    lines = source.split("\n")
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ExceptHandler):
            continue
        caught = node.type
        names = (
            {"<bare>"}
            if caught is None
            else {e.id for e in getattr(caught, "elts", [caught]) if isinstance(e, ast.Name)}
        )
        if not names & {"Exception", "BaseException", "<bare>"}:
            continue
        if any(isinstance(n, ast.Raise) and n.exc is None for n in ast.walk(node)):
            continue  # re-raised: it sorts failures, it does not swallow them
        at = node.lineno - 1
        yield node.lineno, lines[max(0, at - 1) : at + 2]


def blind_excepts() -> Iterator[tuple[Path, int, list[str]]]:
    for path in sorted(APP.rglob("*.py")):
        for line, around in blind_in(path.read_text()):
            yield path, line, around


def says_why(around: list[str]) -> bool:
    """A comment on the except line, or on the line just above or below it."""
    return any("#" in line for line in around)


def test_blind_excepts_stay_few_and_each_says_why() -> None:
    found = list(blind_excepts())
    where = [f"{p.relative_to(APP.parent)}:{n}" for p, n, _ in found]
    assert len(found) <= BLIND_EXCEPTS, f"{len(found)} blind excepts: {where}"
    silent = [f"{p.relative_to(APP.parent)}:{n}" for p, n, around in found if not says_why(around)]
    assert not silent, f"a blind except without its reason: {silent}"


class LooseTypes:
    """Loose dicts and mappings in one module's syntax.

    Every name is read as what it is bound to (``qualified``): an import's target, or
    this module's own name.  ``aliases`` holds what the modules read so far name at
    their top level (``"app.x.Body": "dict"``, ``"app.x.Anything": "any"``), so that
    an alias counts at each use, wherever it is imported."""

    def __init__(self, source: str, module: str, aliases: dict[str, str]) -> None:
        self.module = module
        self.aliases = aliases
        self.tree = ast.parse(source)
        self.bound: dict[str, str] = {}
        package = module.rpartition(".")[0]
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.bound[a.asname or a.name.partition(".")[0]] = (
                        a.name if a.asname else a.name.partition(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                for a in node.names:
                    self.bound[a.asname or a.name] = f"{base}.{a.name}"

    def qualified(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            if node.id in self.bound:
                return self.bound[node.id]
            return "builtins.dict" if node.id == "dict" else f"{self.module}.{node.id}"
        if isinstance(node, ast.Attribute):
            base = self.qualified(node.value)
            return None if base is None else f"{base}.{node.attr}"
        return None

    def kind(self, node: ast.expr) -> str | None:
        """``any``, ``dict`` (a loose dict), ``mapping`` (a loose mapping) or None."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            inner = _expression(node.value)
            return None if inner is None else self.kind(inner)
        if isinstance(node, ast.Subscript):
            container = self.qualified(node.value)
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else []
            if len(elts) == 2 and self.kind(elts[1]) == "any":
                if container in DICT:
                    return "dict"
                if container in MAPPING:
                    return "mapping"
            return None
        name = self.qualified(node)
        if name in ANY:
            return "any"
        return self.aliases.get(name or "")

    def define_aliases(self) -> bool:
        """Note this module's top-level aliases; True when one is new."""
        new = False
        for stmt in self.tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, value = stmt.target, stmt.value
            else:
                continue
            kind = self.kind(value) if isinstance(target, ast.Name) else None
            if kind is not None and isinstance(target, ast.Name):
                name = f"{self.module}.{target.id}"
                new = new or self.aliases.get(name) != kind
                self.aliases[name] = kind
        return new

    def counts(self) -> dict[str, int]:
        """Loose dicts and mappings written (a subscript) or used (an alias's name)."""
        found = {"dict": 0, "mapping": 0}
        for node in _expressions(self.tree):
            loaded = isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load)
            if isinstance(node, ast.Subscript) or loaded:
                kind = self.kind(node)
                if kind in found:
                    found[kind] += 1
        return found


def _expression(text: str) -> ast.expr | None:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None


def _expressions(tree: ast.AST) -> Iterator[ast.expr]:
    """Every expression, and those of each quoted annotation (a string that parses as
    one), but not of a docstring or any other statement that is a lone string."""
    prose = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr) or id(node) in prose:
            continue
        yield node
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            inner = _expression(node.value)
            if inner is not None:
                yield from _expressions(inner)


def loose_types(sources: dict[str, str]) -> dict[str, dict[str, int]]:
    """Module -> its loose dicts and mappings, aliases followed across modules."""
    aliases: dict[str, str] = {}
    scanned = {module: LooseTypes(text, module, aliases) for module, text in sources.items()}
    while any([s.define_aliases() for s in scanned.values()]):
        pass  # an alias of an alias defined in a module read later: once more
    return {module: s.counts() for module, s in scanned.items()}


def app_sources() -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(APP.rglob("*.py")):
        parts = list(path.relative_to(APP.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path.read_text()
    return out


def test_loose_dicts_and_mappings_do_not_grow() -> None:
    found = loose_types(app_sources())
    dicts = {m: c["dict"] for m, c in found.items() if c["dict"]}
    total = sum(dicts.values())
    assert total <= LOOSE_DICTS, f"{total} loose dicts (budget {LOOSE_DICTS}): {dicts}"
    maps = {m: c["mapping"] for m, c in found.items() if c["mapping"]}
    total = sum(maps.values())
    assert total <= LOOSE_MAPPINGS, f"{total} loose mappings ({LOOSE_MAPPINGS}): {maps}"


LOOSE_SPELLINGS = {
    "app.a": '''import typing as t
from typing import Any, Dict
from typing import Any as Whatever

Anything = Any
Body = dict[str, Any]  # 1


def f(x: Body) -> t.Dict[str, t.Any]: ...  # 2, 3


y: dict[str, Whatever] = {}  # 4
z: "dict[str, Anything]" = {}  # 5
w: Dict[int, "Any"] = {}  # 6
ok: dict[str, object] = {}
text = "dict[str, Any]"  # 7: a string that is a type is read as one


def g() -> None:
    """Not dict[str, Any]: a docstring is prose."""
''',
    "app.b": """from collections.abc import Mapping

from .a import Anything, Body


def h(b: Body, c: dict[str, Anything]) -> Mapping[str, Anything]: ...  # 1, 2; a mapping
""",
}


def test_no_spelling_hides_a_loose_dict() -> None:
    """Each commented line holds loose dicts (or uses of an alias of one) as counted;
    a dict of ``object`` is not one, nor is the text of a docstring."""
    found = loose_types(LOOSE_SPELLINGS)
    assert found["app.a"] == {"dict": 7, "mapping": 0}
    assert found["app.b"] == {"dict": 2, "mapping": 1}


def test_the_checks_see_what_they_count() -> None:
    """A blind except is found, a re-raised one and a narrow one are not, and a reason
    beside it is seen."""
    source = (
        "try:\n    pass\nexcept Exception:\n    pass\n"
        "try:\n    pass\nexcept Exception:\n    raise\n"
        "try:\n    pass\nexcept ValueError:\n    pass\n"
        "try:\n    pass\nexcept (ValueError, BaseException):  # why\n    pass\n"
        "try:\n    pass\nexcept:\n    pass\n"
    )
    found = list(blind_in(source))
    assert [line for line, _ in found] == [3, 15, 19]
    assert [says_why(around) for _, around in found] == [False, True, False]
