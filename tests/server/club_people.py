"""Signed-in people of the clubs' server tests (tests/server/test_clubs.py and
test_clubs_hostile.py): tests/server/token_people.py's ``Person`` (a browser with its
cookie and CSRF header) with the clubs' calls, and a server per file."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import fresh_database

from .harness import ServerProcess
from .token_people import Person, Program


class Member(Person):
    """A signed-up browser of a fresh account, with the clubs' routes."""

    @property
    def name(self) -> str:
        r = self.http.get("/api/me")
        assert r.status_code == 200, r.text
        return str(r.json()["username"])

    def put(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.put(path, json=body, headers=self.csrf())

    def delete(self, path: str) -> httpx.Response:
        return self.http.delete(path, headers=self.csrf())

    def make(self, name: str, description: str = "") -> dict[str, Any]:
        r = self.post("/api/clubs", {"name": name, "description": description})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def club(self, club_id: str) -> dict[str, Any]:
        r = self.http.get(f"/api/clubs/{club_id}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def invite(self, club_id: str) -> str:
        r = self.post(f"/api/clubs/{club_id}/invite")
        assert r.status_code == 200, r.text
        return str(r.json()["invite"])

    def join(self, invite: str) -> httpx.Response:
        return self.post("/api/clubs/join", {"invite": invite})

    def mine(self) -> list[dict[str, Any]]:
        r = self.http.get("/api/clubs?mine=1")
        assert r.status_code == 200, r.text
        return list(r.json()["clubs"])


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert (r.status_code, r.json().get("code")) == (status, code), r.text


def club_server(env: dict[str, str], kind: str, folder: Path) -> Iterator[ServerProcess]:
    with fresh_database(kind, folder) as url:
        proc = ServerProcess(url, log_path=folder / "server.log", env=env).start()
        try:
            yield proc
        finally:
            proc.stop_soon()


class Crowd:
    """Every person and program a test made, closed at its end."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.made: list[Member | Program] = []

    def member(self, name: str) -> Member:
        """A new account named ``name`` and a random suffix (the server is shared)."""
        made = Member(self.server, f"{name}_{secrets.token_hex(3)}")
        self.made.append(made)
        return made

    def program(self, token: str) -> Program:
        made = Program(self.server, token)
        self.made.append(made)
        return made

    def close(self) -> None:
        for each in self.made:
            each.close()


def crowd_of(server: ServerProcess) -> Iterator[Crowd]:
    made = Crowd(server)
    try:
        yield made
    finally:
        made.close()
