"""The gate's decisions (app/api/session_gate.py), on hand-made ASGI scopes: which paths
a members-only server keeps open, which origins count as foreign, how the session
cookie is read.  Its effect through a real server is in tests/server/test_accounts.py
and test_access_modes.py."""

from __future__ import annotations

from typing import Any

import pytest

from app.api.session_gate import cookie, members_only, origin_allowed, origin_of, session_cookie


def scope(**headers: str) -> dict[str, Any]:
    return {
        "type": "http",
        "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
    }


@pytest.mark.parametrize(
    "path",
    [
        "/api/auth/login",
        "/api/auth/register",
        "/api/auth/options",
        "/api/me",
        "/api/me/export",
        "/api/rules",
        "/api/rules/deal",
        "/api/tutorial",
        "/api/protocol.schema.json",
        "/api/admin/rooms",
        "/",
        "/r/abc",
        "/static/js/main.js",
        "/healthz",
    ],
)
def test_a_members_only_server_keeps_signing_in_the_rules_and_pages_open(path: str) -> None:
    assert not members_only(path)


@pytest.mark.parametrize(
    "path",
    [
        "/api/rooms",
        "/api/rooms/public",
        "/api/rooms/0123/seats",
        "/api/codes/ABCDEF",
        "/api/me/games",
        "/api/transfers/claim",
        "/api/leaderboard",
        "/api/authx",
        "/api/meet",
        "/api/rulesx",
        "/api/tutorials",
    ],
)
def test_everything_else_under_api_wants_an_account(path: str) -> None:
    assert members_only(path)


@pytest.mark.parametrize(
    ("headers", "allowed"),
    [
        ({}, True),  # no Origin: not a browser's cross-site request
        ({"sec_fetch_site": "same-origin"}, True),
        ({"sec_fetch_site": "none"}, True),
        ({"sec_fetch_site": "cross-site"}, False),
        ({"sec_fetch_site": "same-site"}, False),
        ({"origin": "http://play.example", "host": "play.example"}, True),
        ({"origin": "https://PLAY.example:8443", "host": "play.example:8443"}, True),
        ({"origin": "https://evil.example", "host": "play.example"}, False),
        ({"origin": "https://play.example.evil.example", "host": "play.example"}, False),
        ({"origin": "null", "host": "play.example"}, False),
        ({"origin": "https://play.example"}, False),
    ],
)
def test_without_public_url_the_requests_own_host_is_allowed(
    headers: dict[str, str], allowed: bool
) -> None:
    assert origin_allowed(scope(**headers), None) is allowed


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://play.example.com", True),
        ("https://PLAY.example.com:443", True),
        ("https://admin.example.com", True),
        ("http://localhost:8000", True),
        ("http://play.example.com", False),  # another scheme is another origin
        ("https://play.example.com:8443", False),
        ("https://evil.example", False),
        ("null", False),
        ("https://play.example.com.evil.example", False),
    ],
)
def test_with_public_url_only_it_and_allowed_origins_are_allowed(
    origin: str, allowed: bool
) -> None:
    extra = "https://admin.example.com, http://localhost:8000/"
    # the Host header does not count: it is whatever the request says
    request = scope(origin=origin, host=origin.split("://")[-1])
    assert origin_allowed(request, "https://play.example.com/", extra) is allowed


def test_an_origin_is_its_scheme_host_and_port() -> None:
    assert origin_of("https://Play.Example.com:443/path?q") == "https://play.example.com"
    assert origin_of("http://[::1]:8000") == "http://[::1]:8000"
    assert origin_of("ftp://play.example.com") is None
    assert origin_of("https://play.example.com:99999") is None
    assert origin_of("not a url") is None


def test_the_session_cookie_is_found_among_others_and_a_bad_header_is_none() -> None:
    assert cookie(scope(cookie="a=1; kk_session=tok; b=2"), "kk_session") == "tok"
    assert cookie(scope(cookie="kk_session="), "kk_session") is None
    assert cookie(scope(cookie="a=1"), "kk_session") is None
    assert cookie(scope(cookie='kk_session="unterminated'), "kk_session") is not None
    assert cookie(scope(), "kk_session") is None


def test_the_session_cookie_is_read_under_its_host_prefixed_name_first() -> None:
    assert session_cookie(scope(cookie="kk_session=old; __Host-kk_session=new")) == "new"
    assert session_cookie(scope(cookie="kk_session=old")) == "old"
    assert session_cookie(scope(cookie="__Host-kk_session=new")) == "new"
    assert session_cookie(scope(cookie="kk_csrf=x")) is None
