"""Hostile sign-ins against a real server with the shipped limits (issue 46, part 5):
nobody may lock a named person out by failing at their name.

Each attacker and each person is an httpx client of its own (its own cookie jar)
that comes through 127.0.0.1, the trusted proxy by default, with an address of its
own in X-Forwarded-For (TEST-NET addresses), as behind nginx.  The limits are the
defaults (app/config.py): 5 failures per name and address, 20 per address, 100 per
name from everywhere, the first two within 15 minutes, the last within an hour.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.accounts.tokens import CSRF_COOKIE, CSRF_HEADER, DEVICE_COOKIE
from app.config import Settings

from .harness import ServerProcess, sql

PASSWORD = "correct horse"
DEFAULTS = {name: field.default for name, field in Settings.model_fields.items()}
PER_PAIR = int(DEFAULTS["login_failures_per_account"])
TOTAL = int(DEFAULTS["login_failures_account_total"])
HOME = "198.51.100.7"
"""The person's own address."""


class Person:
    """A browser at an address: its cookie jar, and the CSRF header its page sends."""

    def __init__(self, server: ServerProcess, address: str) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.address = address

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        csrf = self.http.cookies.get(CSRF_COOKIE)
        headers = {"X-Forwarded-For": self.address, **({CSRF_HEADER: csrf} if csrf else {})}
        body = {"username": name, "password": password}
        return self.http.post("/api/auth/login", json=body, headers=headers)

    def register(self, name: str) -> httpx.Response:
        body = {"username": name, "password": PASSWORD}
        headers = {"X-Forwarded-For": self.address}
        return self.http.post("/api/auth/register", json=body, headers=headers)

    def sign_out(self) -> None:
        csrf = self.http.cookies.get(CSRF_COOKIE)
        headers = {"X-Forwarded-For": self.address, CSRF_HEADER: csrf or ""}
        assert self.http.post("/api/auth/logout", headers=headers).status_code == 204

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """For the spray's hundred Argon2 checks: once, on SQLite (the counting itself runs
    on both databases in tests/accounts/test_service.py)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/db.sqlite"
    proc = ServerProcess(url, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def people(request: pytest.FixtureRequest) -> Iterator[Any]:
    name = "sqlite_server" if "sqlite_server" in request.fixturenames else "server"
    server: ServerProcess = request.getfixturevalue(name)
    made: list[Person] = []

    def make(address: str) -> Person:
        made.append(Person(server, address))
        return made[-1]

    yield make
    for p in made:
        p.close()


def fail_from(server: ServerProcess, address: str, name: str, times: int) -> list[int]:
    """An attacker at ``address`` trying wrong passwords at ``name``: the statuses."""
    attacker = Person(server, address)
    try:
        return [attacker.login(name, "wrong horse").status_code for _ in range(times)]
    finally:
        attacker.close()


def test_five_addresses_failing_at_a_name_do_not_lock_its_owner_out(
    server: ServerProcess, people: Any
) -> None:
    """Today's bug: five wrong passwords from five addresses locked the right password
    out for everyone, for 15 minutes, again and again."""
    ann = people(HOME)
    assert ann.register("Ann_1").status_code == 201
    ann.sign_out()
    for n in range(1, 6):
        statuses = fail_from(server, f"203.0.113.{n}", "Ann_1", PER_PAIR)
        assert statuses == [401] * PER_PAIR, statuses
    # the attackers' own addresses are slowed at her name...
    r = people("203.0.113.1").login("Ann_1")
    assert (r.status_code, r.json()["code"]) == (429, "too_many_attempts"), r.text
    assert 0 < int(r.headers["Retry-After"]) <= 900
    # ...while she signs in from her own address: in the browser she used before,
    r = ann.login("Ann_1")
    assert r.status_code == 200, r.text
    # and in a browser that never signed in
    r = people(HOME).login("ann_1")
    assert r.status_code == 200, r.text
    assert r.json()["username"] == "Ann_1"


def test_a_browser_that_signed_in_before_keeps_access_when_its_own_address_fails(
    server: ServerProcess, people: Any
) -> None:
    """Someone behind the same address (a shared network) fails at her name until that
    address is slowed at it: her browser, which signed in there before, is not."""
    ann = people(HOME)
    assert ann.register("Ann_1").status_code == 201
    assert DEVICE_COOKIE in ann.http.cookies, "a sign-in gives the browser its device cookie"
    ann.sign_out()
    assert fail_from(server, HOME, "Ann_1", PER_PAIR) == [401] * PER_PAIR
    r = people(HOME).login("Ann_1")  # a new browser there: slowed like the attacker
    assert (r.status_code, r.json()["code"]) == (429, "too_many_attempts"), r.text
    r = ann.login("Ann_1")
    assert r.status_code == 200, r.text


def test_a_spray_from_many_addresses_stops_new_browsers_but_not_known_ones(
    sqlite_server: ServerProcess, people: Any
) -> None:
    """Past the name's total (100 failures within the hour, from 20 addresses here),
    only browsers that signed in to the account before may still try its password."""
    ann = people(HOME)
    assert ann.register("Ann_1").status_code == 201
    ann.sign_out()
    server = sqlite_server
    addresses = [f"203.0.113.{n + 1}" for n in range(-(-TOTAL // PER_PAIR))]
    with ThreadPoolExecutor(2) as pool:  # the server checks two passwords at a time
        spray = pool.map(lambda a: fail_from(server, a, "Ann_1", PER_PAIR), addresses)
        for address, statuses in zip(addresses, spray, strict=True):
            assert statuses == [401] * PER_PAIR, (address, statuses)
    counted = sql(server.database_url, "SELECT count(*) FROM sign_in_failures")[0][0]
    assert counted >= TOTAL
    # a new browser, at an address that never failed: the spray stops it too
    r = people("192.0.2.1").login("Ann_1")
    assert (r.status_code, r.json()["code"]) == (429, "too_many_attempts"), r.text
    assert 0 < int(r.headers["Retry-After"]) <= 3600
    # her browser that signed in before keeps access, wherever she is
    ann.address = "192.0.2.2"
    r = ann.login("Ann_1")
    assert r.status_code == 200, r.text
    # a device cookie made up by the attacker is worth nothing
    forger = people("192.0.2.3")
    forger.http.cookies.set(DEVICE_COOKIE, ann.http.cookies[DEVICE_COOKIE] + "x")
    r = forger.login("Ann_1")
    assert (r.status_code, r.json()["code"]) == (429, "too_many_attempts"), r.text
