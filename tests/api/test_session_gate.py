"""The gate's decisions (app/api/session_gate.py), on hand-made ASGI scopes: which paths
a members-only server keeps open, which origins count as foreign, how the session
cookie is read.  Its effect through a real server is in tests/server/test_accounts.py
and test_access_modes.py."""

from __future__ import annotations

from typing import Any

import pytest

from app.api.session_gate import cookie, foreign_origin, members_only


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
    ("headers", "foreign"),
    [
        ({}, False),  # no Origin: not a browser's cross-site request
        ({"origin": "http://play.example", "host": "play.example"}, False),
        ({"origin": "https://PLAY.example:8443", "host": "play.example:8443"}, False),
        ({"origin": "https://evil.example", "host": "play.example"}, True),
        ({"origin": "https://play.example.evil.example", "host": "play.example"}, True),
        ({"origin": "null", "host": "play.example"}, True),
        ({"origin": "https://play.example"}, True),
    ],
)
def test_an_origin_of_another_host_is_foreign(headers: dict[str, str], foreign: bool) -> None:
    assert foreign_origin(scope(**headers)) is foreign


def test_the_session_cookie_is_found_among_others_and_a_bad_header_is_none() -> None:
    assert cookie(scope(cookie="a=1; kk_session=tok; b=2"), "kk_session") == "tok"
    assert cookie(scope(cookie="kk_session="), "kk_session") is None
    assert cookie(scope(cookie="a=1"), "kk_session") is None
    assert cookie(scope(cookie='kk_session="unterminated'), "kk_session") is not None
    assert cookie(scope(), "kk_session") is None
