"""Domain errors reach the wire through one table (app/api/errors.py).

Every service raises ``ServiceError(code, message)`` and never picks an HTTP
status; the codes are the shared ones (app/core/errors.py) and each feature's own
enum.  These tests make sure every code of every enum has a status, that no enum of
codes is left out of the table, and that no module raises a code the table does not
know.
"""

from __future__ import annotations

import ast
import importlib
from enum import StrEnum
from pathlib import Path

import pytest

from app.api.errors import CODES, STATUS_OF, http_status, move_error_codes, status_table, wire_code
from app.core.errors import ErrorCode, ServiceError
from app.engine.errors import MoveError, NotInHand
from app.rooms.domain.errors import RoomCode

APP = Path(__file__).resolve().parents[2] / "app"


@pytest.mark.parametrize("code", [code for codes in CODES for code in codes], ids=str)
def test_every_domain_code_has_a_status(code: StrEnum) -> None:
    assert code in STATUS_OF
    assert 400 <= STATUS_OF[code] <= 599


def _code_enums() -> set[str]:
    """Every ``StrEnum`` class defined in an ``errors`` module of app/, by the
    module's dotted name and the class's."""
    found = set()
    for path in sorted(APP.rglob("errors.py")):
        tree = ast.parse(path.read_text(), str(path))
        module = ".".join(path.relative_to(APP.parent).with_suffix("").parts)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and b.id == "StrEnum" for b in node.bases
            ):
                found.add(f"{module}.{node.name}")
    return found


def test_every_enum_of_codes_is_in_the_table() -> None:
    """A feature that adds its own codes cannot forget the HTTP table: its enum is
    found here and must be one of ``CODES`` (which then needs a status per code)."""
    enums = _code_enums()
    assert {"app.core.errors.ErrorCode", "app.pairing.errors.PairingCode"} <= enums
    listed = {f"{e.__module__}.{e.__qualname__}" for e in CODES}
    assert enums == listed
    for name in enums:
        module, _, cls = name.rpartition(".")
        assert getattr(importlib.import_module(module), cls) in CODES


class _Invented(StrEnum):
    ONE = "invented_one"
    ROOM_FULL = "room_full"


def test_the_table_refuses_a_code_without_status_and_a_code_twice() -> None:
    class Alone(StrEnum):
        ONE = "invented_one"

    assert status_table((Alone,), {Alone.ONE: 409}) == {"invented_one": 409}
    with pytest.raises(LookupError, match="Alone.ONE"):
        status_table((Alone,), {})
    with pytest.raises(ValueError, match="room_full"):
        status_table((RoomCode, _Invented), {**dict.fromkeys(RoomCode, 409), _Invented.ONE: 1})
    with pytest.raises(LookupError, match="no listed enum"):
        status_table((Alone,), {Alone.ONE: 409, ErrorCode.BUSY: 503})


def test_every_engine_move_code_is_a_conflict() -> None:
    codes = move_error_codes()
    assert {"illegal_move", "not_in_hand", "must_sweep", "deal_over"} <= codes
    for code in codes:
        assert http_status(ServiceError(code, "refused")) == 409


def test_move_codes_are_found_through_subclasses() -> None:
    class Invented(NotInHand):
        code = "invented_for_this_test"

    assert "invented_for_this_test" in move_error_codes()
    assert MoveError.code in move_error_codes()


def test_the_two_kinds_of_full_share_a_wire_code_but_not_a_status() -> None:
    mine = ServiceError(RoomCode.TOO_MANY_ROOMS, "yours")
    everyone = ServiceError(RoomCode.SERVER_FULL, "all")
    assert wire_code(mine) == wire_code(everyone) == "too_many_rooms"
    assert (http_status(mine), http_status(everyone)) == (429, 503)


def _raised_codes() -> list[tuple[str, int, ast.expr]]:
    """The first argument of every ``ServiceError(...)`` call in app/."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ServiceError"
                and node.args
            ):
                found.append((str(path.relative_to(APP)), node.lineno, node.args[0]))
    return found


def test_the_scan_finds_the_service_raises() -> None:
    where = {path for path, _, _ in _raised_codes()}
    assert {"rooms/commands/play.py", "review/review.py", "rooms/writes.py"} <= where


@pytest.mark.parametrize(
    "path,line,arg", _raised_codes(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_raised_code_is_a_known_one(path: str, line: int, arg: ast.expr) -> None:
    """A code is a member of one of the table's enums, or an engine move error's code
    passed on."""
    enums = {e.__name__: e for e in CODES}
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
        if arg.value.id in enums:
            assert arg.attr in enums[arg.value.id].__members__, f"{path}:{line}"
            return
        assert arg.attr == "code", f"{path}:{line}: unknown code source"
        return
    if isinstance(arg, ast.Name):  # a code handed through (errors.unavailable etc.)
        assert arg.id in {"UNAVAILABLE", "BUSY", "code"}, f"{path}:{line}"
        return
    assert not isinstance(arg, ast.Constant), f"{path}:{line}: use a member of a code enum"
    pytest.fail(f"{path}:{line}: cannot tell which code this raises")


def test_service_errors_carry_no_status() -> None:
    exc = ServiceError(RoomCode.ROOM_FULL, "every seat is taken")
    assert not hasattr(exc, "status")
    with pytest.raises(TypeError):
        ServiceError(RoomCode.ROOM_FULL, "every seat is taken", 409)  # type: ignore[call-arg]
