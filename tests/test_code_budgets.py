"""Budgets the code keeps (issue 48), read from the source of ``app/``.

- Blind excepts (``except Exception``/``BaseException``/bare, not re-raised) at most
  ``BLIND_EXCEPTS``, each saying why on its line or the comment beside it: each is
  a task boundary (a loop that must outlive a failed round, a socket that must
  outlive a bug), and a new one needs a reason good enough to raise the budget.
- ``dict[str, Any]`` at most ``LOOSE_DICTS``: a ratchet.  Typed answers and JSON
  types bring it down; the count may fall, never rise.  Issue 48 aims at 40.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
BLIND_EXCEPTS = 20
LOOSE_DICTS = 117


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


def test_loose_dicts_do_not_grow() -> None:
    count = sum(p.read_text().count("dict[str, Any]") for p in APP.rglob("*.py"))
    assert count <= LOOSE_DICTS, f"dict[str, Any] {count} times (budget {LOOSE_DICTS})"


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
