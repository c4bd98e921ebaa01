"""Domain errors reach the wire through one table (app/api/errors.py).

The room service raises ``ServiceError(code, message)`` and never picks an HTTP
status; these tests make sure every code it can raise has one, and that no
module raises a code the table does not know.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.api.errors import STATUS_OF, http_status, move_error_codes, wire_code
from app.engine.errors import MoveError, NotInHand
from app.rooms.domain.errors import ErrorCode, ServiceError

APP = Path(__file__).resolve().parents[2] / "app"


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_domain_code_has_a_status(code: ErrorCode) -> None:
    assert code in STATUS_OF
    assert 400 <= STATUS_OF[code] <= 599


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
    mine = ServiceError(ErrorCode.TOO_MANY_ROOMS, "yours")
    everyone = ServiceError(ErrorCode.SERVER_FULL, "all")
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
    """A code is an ``ErrorCode`` member, or an engine move error's code passed on."""
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
        if arg.value.id == "ErrorCode":
            assert arg.attr in ErrorCode.__members__, f"{path}:{line}"
            return
        assert arg.attr == "code", f"{path}:{line}: unknown code source"
        return
    if isinstance(arg, ast.Name):  # a code handed through (errors.unavailable etc.)
        assert arg.id in {"UNAVAILABLE", "BUSY", "code"}, f"{path}:{line}"
        return
    assert not isinstance(arg, ast.Constant), f"{path}:{line}: use an ErrorCode member"
    pytest.fail(f"{path}:{line}: cannot tell which code this raises")


def test_service_errors_carry_no_status() -> None:
    exc = ServiceError(ErrorCode.ROOM_FULL, "every seat is taken")
    assert not hasattr(exc, "status")
    with pytest.raises(TypeError):
        ServiceError(ErrorCode.ROOM_FULL, "every seat is taken", 409)  # type: ignore[call-arg]
