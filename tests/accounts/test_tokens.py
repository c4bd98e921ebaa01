"""Session tokens and the CSRF token bound to each (app/accounts/tokens.py)."""

from __future__ import annotations

from app.accounts.tokens import (
    csrf_matches,
    csrf_token,
    new_account_id,
    new_session_token,
    session_hash,
)


def test_tokens_are_long_random_and_stored_only_as_a_hash() -> None:
    a, b = new_session_token(), new_session_token()
    assert a != b and len(a) >= 43
    assert len(session_hash(a)) == 64 and a not in session_hash(a)
    assert session_hash(a) == session_hash(a) != session_hash(b)
    assert len(new_account_id()) == 32


def test_the_csrf_token_fits_its_own_session_only() -> None:
    a, b = new_session_token(), new_session_token()
    assert csrf_matches(a, csrf_token(a))
    assert not csrf_matches(a, csrf_token(b))
    assert not csrf_matches(a, None)
    assert not csrf_matches(a, "")
    assert csrf_token(a) not in (a, session_hash(a)), "the CSRF token reveals neither"
