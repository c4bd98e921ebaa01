"""app/ops/cli.py without a server: the admin token and its hash, and the settings
check of ADMIN_TOKEN_HASH."""

from __future__ import annotations

import hashlib

import pytest
from pydantic import ValidationError

from app.cli import main
from app.config import Settings
from app.ops.cli import UsageError, parse_cutoff


def test_admin_token_prints_a_fresh_token_and_the_line_with_its_hash(capsys) -> None:  # type: ignore[no-untyped-def]
    tokens = []
    for _ in range(2):
        assert main(["admin-token"]) == 0
        lines = capsys.readouterr().out.splitlines()
        token = lines[1].strip()
        [line] = [x for x in lines if x.startswith("ADMIN_TOKEN_HASH=")]
        assert line == f"ADMIN_TOKEN_HASH={hashlib.sha256(token.encode()).hexdigest()}"
        assert len(token) >= 40
        assert Settings(admin_token_hash=line.split("=", 1)[1]).admin_token_hash
        tokens.append(token)
    assert tokens[0] != tokens[1]


@pytest.mark.parametrize("value", ["abc", "g" * 64, "a" * 63, "a" * 65])
def test_a_malformed_admin_token_hash_is_refused(value: str) -> None:
    with pytest.raises(ValidationError, match="ADMIN_TOKEN_HASH"):
        Settings(admin_token_hash=value)


def test_an_empty_admin_token_hash_means_off_and_case_does_not_matter() -> None:
    assert Settings(admin_token_hash="").admin_token_hash is None
    assert Settings(admin_token_hash="AB" * 32).admin_token_hash == "ab" * 32


def test_cutoffs_are_utc() -> None:
    assert parse_cutoff("2030-01-31").isoformat() == "2030-01-31T00:00:00+00:00"
    assert parse_cutoff("2030-01-31T12:30").isoformat() == "2030-01-31T12:30:00+00:00"
    assert parse_cutoff("2030-01-31T12:30+02:00").isoformat() == "2030-01-31T10:30:00+00:00"
    assert parse_cutoff("2030-01-31T12:30Z").isoformat() == "2030-01-31T12:30:00+00:00"
    with pytest.raises(UsageError):
        parse_cutoff("31.01.2030")


@pytest.mark.parametrize(
    "reason, why",
    [
        ("bell\x07", "a control character (U+0007)"),
        ("two\nlines", "a control character (U+000A)"),
        ("not utf-8 \udcff", "a surrogate (U+DCFF)"),
        ("x" * 201, "limited to 200 characters"),
    ],
)
def test_a_close_reason_a_database_could_refuse_is_a_usage_error(
    capsys,
    reason: str,  # type: ignore[no-untyped-def]
    why: str,
) -> None:
    """As the admin API refuses it; checked before the database is touched."""
    assert main(["rooms", "close", "a" * 32, "--reason", reason]) == 2
    err = capsys.readouterr().err
    assert err.startswith("krypkasino: --reason") and why in err
