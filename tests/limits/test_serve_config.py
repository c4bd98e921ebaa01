"""``krypkasino serve``'s uvicorn configuration carries the HTTP limit settings."""

from __future__ import annotations

from fastapi import FastAPI

from app.cli import uvicorn_config
from app.config import Settings
from app.limits.headers import HeaderTimeoutProtocol


def test_the_settings_reach_uvicorn() -> None:
    settings = Settings(header_timeout=3, idle_timeout=7, trusted_proxies="10.0.0.0/8")
    config = uvicorn_config(FastAPI(), settings, "127.0.0.1", 8000)
    assert issubclass(config.http, HeaderTimeoutProtocol)  # type: ignore[arg-type]
    assert config.http.header_timeout == 3  # type: ignore[union-attr]
    assert config.timeout_keep_alive == 7
    assert config.proxy_headers and config.forwarded_allow_ips == "10.0.0.0/8"


def test_the_defaults_are_the_documented_ones() -> None:
    config = uvicorn_config(FastAPI(), Settings(), "127.0.0.1", 8000)
    assert config.http.header_timeout == 10  # type: ignore[union-attr]
    assert config.timeout_keep_alive == 5
    assert config.forwarded_allow_ips == "127.0.0.1,::1"
