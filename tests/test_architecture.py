"""The structure of app/ checks itself: one-way layers, no import loops, small modules.

The import graph is read from the source (``ast``), counting every import: at
the top of a module, inside a function, and under ``TYPE_CHECKING`` (a loop that
only the type checker follows is still a loop a reader has to hold in their
head).  ``from package import name`` counts as an import of the package's face
(its ``__init__``) and, when ``name`` is a module, of that module too.
docs/architecture.md draws the layers these tests hold the code to.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "app"
MAX_LINES = 400
"""No module grows past this many lines (STYLE.md: a few hundred lines, one job)."""

LAYERS: dict[str, tuple[str, ...]] = {
    "app.engine": ("app",),
    "app.core": ("app",),
    "app.outbox": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.rooms": ("app.db", "app.api", "app.web", "app.ops"),
    "app.wire": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.bots": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.realtime": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.social": ("app.db", "app.api", "app.web", "app.ops"),
    "app.review": ("app.db", "app.api", "app.web", "app.ops"),
    "app.players": ("app.db", "app.api", "app.web", "app.ops"),
    "app.notify": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.ratings": ("app.db", "app.api", "app.web", "app.ops"),
    "app.pairing": ("app.db", "app.api", "app.web", "app.ops"),
    "app.accounts": ("app.db", "app.api", "app.web", "app.ops"),
    "app.botplay": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.daily": ("app.db", "app.api", "app.web", "app.ops"),
    "app.ladder": ("app.db", "app.api", "app.web", "app.ops"),
    "app.clubs": ("app.db", "app.api", "app.web", "app.ops", "app.rooms"),
    "app.api": ("app.db",),
    "app.ops": ("app.api",),
    "app.db": ("app.api", "app.web", "app.ops"),
    "app.web": ("app.api", "app.db", "app.ops", "app.rooms"),
}
"""Package -> the packages it must not import.  The engine imports nothing else of
``app`` (its own modules aside); the rooms, the wire, the bots, real-time delivery and
the features know nothing of storage, HTTP, pages or operations; the API speaks to
storage only through the services it is handed; operations never call the API; storage
serves the layers above it and never calls up into HTTP, pages or operations."""

FACADE = "app.rooms.service"
FACADE_USERS = ("app.main", "app.features", "app.services", "app.api", "app.ops")
"""Only the layers above the rooms may hold the room service; below it, every handler
is handed the unit of work instead (no helper imports the object that uses it)."""

FEATURES = (
    "app.accounts",
    "app.bots",
    "app.botplay",
    "app.clubs",
    "app.coach",
    "app.daily",
    "app.ladder",
    "app.notify",
    "app.pairing",
    "app.players",
    "app.ratings",
    "app.review",
    "app.social",
)
"""The packages built beside the rooms: they reach a room only through what the rooms
publish (below), and through the room service's methods, which app/features.py hands
them as small Protocols of their own (the chat's ``ChatRooms``, the lobby's
``Spectators``), and through the domain events of the outbox."""

PUBLISHED = {
    "app.rooms.domain.commands": "the typed commands: what a feature asks the room "
    "service to do (pairing's NewRoom and JoinRoom, the chat's SetSpectatorChat)",
    "app.rooms.domain.results": "the commands' and reads' answers (RoomCreated, "
    "SeatGiven, TableFacts)",
    "app.rooms.domain.options": "what a room is made with (RoomOptions, a preset deal): "
    "part of the NewRoom command",
    "app.rooms.domain.errors": "the rooms' own refusal codes (RoomCode), by which a "
    "caller tells the service's refusals apart (pairing passes too_many_rooms on)",
    "app.rooms.domain.match_end": "a finished match as a plain value: the body of the "
    "match_ended domain event the ratings and the deal of the day follow",
    "app.rooms.domain.record_types": "a finished deal's record as stored and served: the "
    "archive's words, read by the review, the coach, the deal of the day and the lobby",
    "app.rooms.domain.records": "a stored deal made into its public record (pure): the "
    "review's archive serves what the rooms would",
    "app.rooms.domain.replay": "a record's positions replayed on the engine (pure): the "
    "review's steps and what-ifs start from the very positions that were played",
}
"""The modules of ``app.rooms`` a feature may import, each with why.  Everything else
there (the write path, the unit of work, the registry, sync, the store, the state
machine, the events) is the rooms' own: a feature that needs something of it asks for
a command or a read on the service.  The package faces (``app.rooms``,
``app.rooms.domain``) hold nothing but their docstrings."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(APP.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def imports_of(name: str) -> Iterator[tuple[str, int]]:
    """(module of app it imports, line) for every import statement in ``name``."""
    path = MODULES[name]
    package = name if is_package(name) else name.rpartition(".")[0]
    yield from imports_in(path.read_text(), package, str(path))


def imports_in(source: str, package: str, where: str = "<source>") -> Iterator[tuple[str, int]]:
    """(what it imports, line) for every import statement of ``source``, a module of
    ``package`` (relative imports are resolved against it)."""
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            yield source, node.lineno
            for alias in node.names:
                yield f"{source}.{alias.name}", node.lineno


@functools.cache
def graph() -> dict[str, dict[str, int]]:
    """Module -> {imported module of app: line}; only modules that exist count.

    Parsed once a run (the tests only read it): the layer test asks for it once a
    layer, and parsing every module of app took three seconds on a loaded machine."""
    edges: dict[str, dict[str, int]] = {}
    for name in MODULES:
        out: dict[str, int] = {}
        for target, line in imports_of(name):
            if target in MODULES and target != name:
                out.setdefault(target, line)
        edges[name] = out
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_there_is_no_import_loop_in_app() -> None:
    edges = graph()
    loops = cycles(edges)
    described = [
        " ; ".join(f"{a} -> {b} (line {edges[a][b]})" for a in loop for b in loop if b in edges[a])
        for loop in loops
    ]
    assert not loops, "import loops:\n" + "\n".join(described)


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_layer_imports_only_what_lies_below_it(package: str) -> None:
    forbidden = LAYERS[package]
    bad = []
    for name, targets in graph().items():
        if not within(name, package):
            continue
        for target, line in targets.items():
            if within(target, package):
                continue
            if any(within(target, f) for f in forbidden):
                bad.append(f"{MODULES[name].relative_to(APP.parent)}:{line} imports {target}")
    assert not bad, "\n".join(bad)


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    """A pure rules engine, like python-chess's core: no server, no database, no I/O,
    no third-party package."""
    bad = [
        f"{name}: {target}"
        for name in MODULES
        if within(name, "app.engine")
        for target, _ in imports_of(name)
        if not within(target, "app.engine")
        and target.split(".")[0] not in sys.stdlib_module_names
        and target != "__future__"
    ]
    assert not bad, bad


def test_the_wire_depends_on_the_text_rules_and_the_engines_view_types_alone() -> None:
    """The protocol's models are shared by the server and its tests: they import
    nothing of ``app`` but ``app.text``, the engine's typed view parts and the JSON
    types (``app.core.json``, which imports nothing of ``app``), and pydantic, so the
    room, the API and the tests all may use them."""
    ours = {
        target
        for name, targets in graph().items()
        if within(name, "app.wire")
        for target in targets
        if not within(target, "app.wire")
    }
    allowed = {"app", "app.text", "app.engine", "app.engine.view_types", "app.core.json"}
    assert ours <= allowed, ours


def test_only_the_layers_above_the_rooms_hold_the_room_service() -> None:
    bad = [
        f"{MODULES[name].relative_to(APP.parent)}:{targets[FACADE]}"
        for name, targets in graph().items()
        if FACADE in targets and not any(within(name, user) for user in FACADE_USERS)
    ]
    assert not bad, f"{FACADE} imported by: {bad}"


def rooms_internals(name: str, source: str) -> list[tuple[str, int]]:
    """The modules of ``app.rooms`` that ``source`` (the module ``name``) imports but
    may not: none unless ``name`` is in a feature package; then any but the published
    ones and the package faces."""
    if not any(within(name, feature) for feature in FEATURES):
        return []
    package = name if MODULES.get(name, Path()).name == "__init__.py" else name.rpartition(".")[0]
    return [
        (target, line)
        for target, line in imports_in(source, package, name)
        if target in MODULES
        and within(target, "app.rooms")
        and target not in PUBLISHED
        and not is_package(target)
    ]


def test_features_import_only_what_the_rooms_publish() -> None:
    """A feature reaches a room through the room service's commands and reads (handed
    to it as a Protocol of its own) and the outbox's domain events, never through the
    rooms' internals: a change inside the rooms then breaks no feature."""
    bad = [
        f"{MODULES[name].relative_to(APP.parent)}:{line} imports {target}"
        for name in MODULES
        for target, line in rooms_internals(name, MODULES[name].read_text())
    ]
    assert not bad, "not published by app.rooms (see PUBLISHED):\n" + "\n".join(bad)


def test_published_modules_exist_and_are_pure() -> None:
    """Every published module exists, and none of them is one that does I/O: they are
    all of ``app.rooms.domain`` (pure: no I/O, no asyncio)."""
    for module in PUBLISHED:
        assert module in MODULES, module
        assert within(module, "app.rooms.domain"), module


def test_the_rule_catches_a_planted_import_of_the_rooms_internals() -> None:
    """The checker run on a feature module made for it: an import of the write path
    (plain, relative-free, inside a function, under TYPE_CHECKING) is caught; the
    published modules, a package face and the same imports outside a feature are not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from app.rooms.domain.results import TableFacts\n"
        "from app.rooms.domain import commands\n"
        "from app.rooms.writes import WritePath\n"
        "import app.rooms.registry\n"
        "if TYPE_CHECKING:\n    from app.rooms.unit import RoomsUnit\n"
        "def f():\n    from app.rooms.domain.state import RoomState\n"
    )
    caught = rooms_internals("app.social.planted", source)
    assert [t for t, _ in caught] == [
        "app.rooms.writes",
        "app.rooms.registry",
        "app.rooms.unit",
        "app.rooms.domain.state",
    ]
    assert [line for _, line in caught] == [4, 5, 7, 9]
    assert rooms_internals("app.features", source) == [], "the composition root may"
    assert rooms_internals("app.api.planted", source) == [], "the API holds the service"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_longer_than_400_lines(name: str) -> None:
    lines = len(MODULES[name].read_text().splitlines())
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(APP.parent)} has {lines} lines"


def test_the_graph_sees_every_kind_of_import() -> None:
    """A loop hidden under TYPE_CHECKING or inside a function, and a package face named
    by ``from package import module``, are all edges: shown on a file made for it."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from app import wire\n"
        "if TYPE_CHECKING:\n    from app.rooms.unit import RoomsUnit\n"
        "def f():\n    from app.engine import deal\n"
    )
    tree = ast.parse(source)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    assert {"app", "app.wire", "app.rooms.unit", "app.engine.deal"} <= found
    edges = graph()
    assert "app.rooms.unit" in edges["app.rooms.writes"], "a plain import is seen"
    loops = cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}})
    assert loops == [["a", "b", "c"]]
