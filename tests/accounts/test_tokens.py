"""Session tokens, the CSRF value bound to each, and the device cookie
(app/accounts/tokens.py)."""

from __future__ import annotations

import hashlib

from app.accounts.tokens import (
    DEVICE_ACCOUNTS,
    DEVICE_DAYS,
    cookie_name,
    cookie_names,
    csrf_matches,
    csrf_token,
    device_cookie,
    device_of,
    new_account_id,
    new_secret,
    new_session_token,
    session_hash,
)

SECRET = new_secret().encode()
NOW = 1_700_000_000_000


def test_tokens_are_long_random_and_stored_only_as_a_hash() -> None:
    a, b = new_session_token(), new_session_token()
    assert a != b and len(a) >= 43
    assert len(session_hash(a)) == 64 and a not in session_hash(a)
    assert session_hash(a) == session_hash(a) != session_hash(b)
    assert len(new_account_id()) == 32


def test_the_csrf_token_fits_its_own_session_only() -> None:
    a, b = new_session_token(), new_session_token()
    assert csrf_matches(SECRET, a, csrf_token(SECRET, a))
    assert not csrf_matches(SECRET, a, csrf_token(SECRET, b))
    assert not csrf_matches(SECRET, a, None)
    assert not csrf_matches(SECRET, a, "")
    assert not csrf_matches(SECRET, a, "ü" * 43)
    assert csrf_token(SECRET, a) not in (a, session_hash(a)), "the CSRF token reveals neither"


def test_the_csrf_token_needs_the_servers_secret() -> None:
    """Not a hash of the cookie alone (issue 46): another secret, another value."""
    a = new_session_token()
    assert csrf_token(SECRET, a) != csrf_token(new_secret().encode(), a)
    unsalted = hashlib.sha256(b"krypkasino-csrf:" + a.encode()).hexdigest()
    assert not csrf_matches(SECRET, a, unsalted[:43])
    assert not csrf_matches(SECRET, a, unsalted)


def test_cookie_names_are_host_prefixed_over_tls_and_both_are_read() -> None:
    assert cookie_name("kk_session", True) == "__Host-kk_session"
    assert cookie_name("kk_session", False) == "kk_session"
    assert cookie_names("kk_session") == ("__Host-kk_session", "kk_session")


def test_a_device_cookie_names_the_accounts_its_browser_signed_in_to() -> None:
    ann, bo = new_account_id(), new_account_id()
    first = device_cookie(SECRET, None, ann, NOW)
    device = device_of(SECRET, first, ann, NOW)
    assert device is not None and device_of(SECRET, first, bo, NOW) is None
    both = device_cookie(SECRET, first, bo, NOW + 1000)
    assert device_of(SECRET, both, ann, NOW) == device, "the other account is kept"
    assert device_of(SECRET, both, bo, NOW) not in (None, device)
    again = device_cookie(SECRET, both, ann, NOW + 2000)
    assert device_of(SECRET, again, ann, NOW) != device, "a new device id at each sign-in"
    assert again.count("~") == 1, "one entry per account"
    many = None
    for _ in range(DEVICE_ACCOUNTS + 3):
        many = device_cookie(SECRET, many, new_account_id(), NOW)
    assert many is not None and many.count("~") == DEVICE_ACCOUNTS - 1


def test_a_device_cookie_is_worth_nothing_forged_from_elsewhere_or_too_old() -> None:
    ann = new_account_id()
    cookie = device_cookie(SECRET, None, ann, NOW)
    assert device_of(new_secret().encode(), cookie, ann, NOW) is None, "another server's"
    account, device, day, mac = cookie.split(".")
    forged = f"{new_account_id()}.{device}.{day}.{mac}"
    assert device_of(SECRET, forged, forged.split(".")[0], NOW) is None
    later = NOW + (DEVICE_DAYS + 1) * 86_400_000
    assert device_of(SECRET, cookie, ann, later) is None
    for junk in ("", "a.b.c", "~~~", "x" * 300, None):
        assert device_of(SECRET, junk, ann, NOW) is None
