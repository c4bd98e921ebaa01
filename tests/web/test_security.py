"""The client pages' Content-Security-Policy."""

from __future__ import annotations

import pytest

from app.web.security import content_security_policy


def _directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in out, f"{name} twice"
        out[name] = values
    return out


def test_only_this_origin_and_no_inline_script_or_style() -> None:
    d = _directives(content_security_policy("play.example.com"))
    assert d["default-src"] == ["'self'"]
    assert d["script-src"] == ["'self'"] and d["style-src"] == ["'self'"]
    assert d["object-src"] == ["'none'"] and d["base-uri"] == ["'none'"]
    assert d["frame-ancestors"] == ["'none'"]
    assert not any("unsafe" in v or v == "*" for values in d.values() for v in values)


@pytest.mark.parametrize(
    "host", ["play.example.com", "localhost:8000", "127.0.0.1:8123", "[::1]:8000"]
)
def test_the_websocket_of_the_pages_own_host_is_spelled_out(host: str) -> None:
    assert _directives(content_security_policy(host))["connect-src"] == [
        "'self'",
        f"ws://{host}",
        f"wss://{host}",
    ]


@pytest.mark.parametrize("host", [None, "", "evil.example; script-src *", "a b", "x/y", "*"])
def test_a_strange_host_header_is_not_echoed(host: str | None) -> None:
    assert _directives(content_security_policy(host))["connect-src"] == ["'self'"]
