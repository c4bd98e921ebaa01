"""People and bots with personal access tokens (issue 51), for the server tests of
tests/server/test_tokens.py and test_tokens_hostile.py: a browser signs up (its
cookie and CSRF header, tests/server/test_accounts.py's ``Browser``), makes its
account a bot account if asked, and makes tokens; a program then sends them as
``Authorization: Bearer`` from a client without cookies."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import fresh_database

from .harness import ServerProcess
from .test_accounts import Browser

TOKEN_LIMITS = {"REGISTER_PER_HOUR": "0", "TOKEN_REQUESTS_PER_MINUTE": "40"}
"""Every test signs up several accounts from 127.0.0.1; a token may send 40 requests
at once, then one every 1.5 s (the flood test's limit; the others send fewer)."""


def token_server(kind: str, folder: Path) -> Iterator[ServerProcess]:
    """A server on a fresh database of ``kind`` with TOKEN_LIMITS, for a module's tests
    (the test files' module-scoped ``server`` fixtures yield from it)."""
    with fresh_database(kind, folder) as url:
        proc = ServerProcess(url, log_path=folder / "server.log", env=TOKEN_LIMITS).start()
        try:
            yield proc
        finally:
            proc.stop_soon()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Person(Browser):
    """A signed-up browser of a fresh account."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        super().__init__(server)
        r = self.register(name)
        assert r.status_code == 201, r.text

    def make_bot(self) -> dict[str, Any]:
        r = self.post("/api/me/bot")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def token(self, *scopes: str, name: str = "my bot") -> dict[str, Any]:
        r = self.post("/api/tokens", {"name": name, "scopes": list(scopes)})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def tokens(self) -> list[dict[str, Any]]:
        r = self.http.get("/api/tokens")
        assert r.status_code == 200, r.text
        return list(r.json()["tokens"])


class Program:
    """A program without cookies that sends one token with every request."""

    def __init__(self, server: ServerProcess, token: str) -> None:
        self.token = token
        self.http = httpx.Client(base_url=server.url, timeout=20, headers=bearer(token))

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def delete(self, path: str) -> httpx.Response:
        return self.http.delete(path)

    def close(self) -> None:
        self.http.close()


class People:
    """Every person and program a test made, closed at its end."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.made: list[Browser | Program] = []

    def person(self, name: str, bot: bool = False) -> Person:
        """A new account named ``name`` and a random suffix (the server is shared)."""
        made = Person(self.server, f"{name}_{secrets.token_hex(3)}")
        if bot:
            made.make_bot()
        self.made.append(made)
        return made

    def program(self, token: str) -> Program:
        made = Program(self.server, token)
        self.made.append(made)
        return made

    def bot(self, name: str, *scopes: str) -> tuple[Person, Program]:
        """A bot account's browser, and its program with a token of ``scopes``."""
        owner = self.person(name, bot=True)
        return owner, self.program(owner.token(*(scopes or ("bot:play",)))["token"])

    def close(self) -> None:
        for each in self.made:
            each.close()


def people_of(server: ServerProcess) -> Iterator[People]:
    made = People(server)
    try:
        yield made
    finally:
        made.close()
