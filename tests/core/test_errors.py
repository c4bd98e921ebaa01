"""The refusals and storage failures every package shares (app/core/errors.py)."""

from __future__ import annotations

from app.core.errors import (
    BUSY,
    RETRYABLE,
    UNAVAILABLE,
    Conflict,
    ErrorCode,
    ServiceError,
    Unavailable,
    unavailable,
)


def test_a_refusal_is_a_code_and_a_message() -> None:
    exc = ServiceError(ErrorCode.NOT_FOUND, "no such room")
    assert (exc.code, exc.message, str(exc)) == ("not_found", "no such room", "no such room")


def test_the_store_being_away_is_refused_as_retryable() -> None:
    """A timer retries exactly the refusals that say "nothing happened": the database
    away (``unavailable``) and a room busy; never a refusal of the command itself."""
    refused = unavailable()
    assert refused.code == UNAVAILABLE == "unavailable"
    assert refused.code in RETRYABLE
    assert BUSY in RETRYABLE
    assert ErrorCode.NOT_FOUND not in RETRYABLE
    assert ErrorCode.BAD_REQUEST not in RETRYABLE


def test_the_two_storage_failures_are_told_apart() -> None:
    """A caller that retries on ``Unavailable`` must not swallow a ``Conflict`` (a name
    taken), and neither is a refusal (they are the stores', not a command's)."""
    assert not issubclass(Unavailable, Conflict)
    assert not issubclass(Conflict, Unavailable)
    assert not issubclass(Unavailable, ServiceError)
    assert not issubclass(Conflict, ServiceError)


def test_the_shared_codes_keep_their_wire_strings() -> None:
    """Clients and docs/protocol.md read these strings: moving them changed none."""
    assert {c.value for c in ErrorCode} == {
        "bad_request",
        "bad_message",
        "not_found",
        "unauthorized",
        "unavailable",
        "busy",
        "internal",
        "name_reserved",
        "deal_not_over",
    }
