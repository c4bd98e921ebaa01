"""Hostile pages and forged values against a real server (issue 46, part 6): the CSRF
value needs the server's secret, cookies are ``__Host-`` named over TLS, a page of
another site gets nowhere with a member's cookie (HTTP or WebSocket), and the OpenID
Connect callback never follows a Host header.

A foreign page is simulated as a browser would send its requests: the member's
cookies, and the ``Origin`` of the page.  The member's CSRF value is sent too (a
page of another site cannot read it, but the Origin check must stand on its own).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from app.accounts.tokens import CSRF_COOKIE, CSRF_HEADER, DEVICE_COOKIE, SESSION_COOKIE
from tests import fetch
from tests.accounts.provider_process import Provider
from tests.conftest import ROOT, run_async

from .harness import TEST_LIMITS, ServerProcess, free_port, sql

PASSWORD = "correct horse"
EVIL = "https://evil.example"
KEY = "k" * 43


class Member:
    """A browser signed in to the server (its own cookie jar)."""

    def __init__(self, server: ServerProcess, name: str = "Ann_1") -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=20)
        r = self.http.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.token = self.http.cookies[SESSION_COOKIE]

    @property
    def csrf(self) -> str:
        return str(self.http.cookies[CSRF_COOKIE])

    def post(self, path: str, body: Any = None, **headers: str) -> httpx.Response:
        return self.http.post(path, json=body, headers={CSRF_HEADER: self.csrf, **headers})

    def close(self) -> None:
        self.http.close()


def start(tmp_path: Path, database_url: str, **env: str) -> ServerProcess:
    """A server whose PUBLIC_URL is its own address (unless ``env`` says otherwise)."""
    port = free_port()
    env = {"PUBLIC_URL": f"http://127.0.0.1:{port}/", **env}
    return ServerProcess(database_url, port=port, env=env, log_path=tmp_path / "server.log").start()


@pytest.fixture
def members(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = start(tmp_path, database_url, ACCESS="members")
    try:
        yield proc
    finally:
        proc.stop()


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and isinstance(body["message"], str) and body["message"]


# ---------------------------------------------------------------------------- CSRF


def test_the_csrf_value_is_no_hash_of_the_cookie(server: ServerProcess) -> None:
    """Today's bug: ``sha256("krypkasino-csrf:" + cookie)`` was the CSRF value, so
    anyone holding the cookie (a sibling domain's script, a log) could make it."""
    ann = Member(server)
    try:
        unsalted = hashlib.sha256(b"krypkasino-csrf:" + ann.token.encode()).hexdigest()
        assert ann.csrf not in (unsalted, unsalted[:43])
        for forged in (unsalted[:43], unsalted):
            r = ann.http.post(
                "/api/rooms", json={"players": 2, "name": "Ann"}, headers={CSRF_HEADER: forged}
            )
            refused(r, 403, "csrf_failed")
        assert ann.post("/api/rooms", {"players": 2, "name": "Ann"}).status_code == 201
    finally:
        ann.close()


def test_the_csrf_value_changes_with_the_servers_secret(database_url: str, tmp_path: Path) -> None:
    """The same session cookie on a server with another secret has another CSRF value;
    the old one is refused there, and the page is handed the new one."""
    proc = start(tmp_path, database_url)
    ann = Member(proc)
    try:
        before = ann.csrf
        assert ann.http.get("/api/me").json()["csrf"] == before
        kept = sql(database_url, "SELECT value FROM server_keys WHERE name = 'csrf'")
        assert len(kept) == 1 and len(kept[0][0]) >= 32, "made once, kept with the other keys"
        proc.stop()
        sql(database_url, "UPDATE server_keys SET value = 'another-secret' WHERE name = 'csrf'")
        proc.start()
        me = ann.http.get("/api/me")  # the cookie still signs in
        assert me.status_code == 200
        after = me.json()["csrf"]
        assert after != before
        assert ann.http.cookies[CSRF_COOKIE] == after, "the page's cookie is set anew"
        r = ann.http.post(
            "/api/rooms", json={"players": 2, "name": "Ann"}, headers={CSRF_HEADER: before}
        )
        refused(r, 403, "csrf_failed")
        assert ann.post("/api/rooms", {"players": 2, "name": "Ann"}).status_code == 201
    finally:
        ann.close()
        proc.stop()


# --------------------------------------------------------------------- cookies


def cookie_lines(r: httpx.Response) -> dict[str, str]:
    return {line.split("=", 1)[0]: line.lower() for line in r.headers.get_list("set-cookie")}


def test_cookies_are_host_prefixed_over_tls_and_both_names_are_read(
    server: ServerProcess,
) -> None:
    """Behind a TLS proxy (X-Forwarded-Proto from the trusted 127.0.0.1) the session
    and device cookies are ``__Host-`` named, Secure, for the whole site and no other
    host; a session set under the plain name before still works."""
    tls = {"X-Forwarded-Proto": "https"}
    with httpx.Client(base_url=server.url, timeout=20) as client:
        body = {"username": "Ann_1", "password": PASSWORD}
        r = client.post("/api/auth/register", json=body, headers=tls)
        assert r.status_code == 201, r.text
    lines = cookie_lines(r)
    for name in (SESSION_COOKIE, DEVICE_COOKIE):
        line = lines["__Host-" + name]
        assert "secure" in line and "path=/" in line and "domain" not in line
        assert "httponly" in line
        assert name not in lines, "no plain name over TLS"
    assert "secure" in lines[CSRF_COOKIE]
    session = next(
        v for v in r.headers.get_list("set-cookie") if v.startswith("__Host-" + SESSION_COOKIE)
    )
    value = session.split("=", 1)[1].split(";", 1)[0]
    csrf = r.json()["csrf"]
    for name in ("__Host-" + SESSION_COOKIE, SESSION_COOKIE):
        cookies = {"Cookie": f"{name}={value}; {CSRF_COOKIE}={csrf}"}
        me = fetch.get(server.url + "/api/me", headers={**tls, **cookies})
        assert me.status_code == 200 and me.json()["username"] == "Ann_1", name
        made = fetch.post(
            server.url + "/api/rooms",
            json={"players": 2, "name": "Ann"},
            headers={**tls, **cookies, CSRF_HEADER: csrf},
        )
        assert made.status_code == 201, made.text
    # plain http: plain names, for a local server
    with httpx.Client(base_url=server.url, timeout=20) as client:
        body = {"username": "Bo_22", "password": PASSWORD}
        lines = cookie_lines(client.post("/api/auth/register", json=body))
    assert SESSION_COOKIE in lines and "__Host-" + SESSION_COOKIE not in lines
    assert "secure" not in lines[SESSION_COOKIE]


def test_an_https_public_url_gives_host_prefixed_cookies(database_url: str, tmp_path: Path) -> None:
    proc = start(tmp_path, database_url, PUBLIC_URL="https://play.example.test/")
    try:
        r = fetch.post(
            proc.url + "/api/auth/register", json={"username": "Ann_1", "password": PASSWORD}
        )
        assert r.status_code == 201, r.text
        assert "__Host-" + SESSION_COOKIE in cookie_lines(r)
    finally:
        proc.stop()


# ---------------------------------------------------------------------- Origin


def test_a_foreign_page_cannot_take_over_keys_or_change_anything_with_a_members_cookie(
    members: ServerProcess,
) -> None:
    """Today's bug: ``POST /api/me/keys`` (which the lobby sends by itself after an
    OpenID Connect sign-in) and the other signed-in requests checked no Origin."""
    ann = Member(members)
    try:
        linked = "SELECT count(*) FROM account_keys"
        before = sql(members.database_url, linked)[0][0]
        for origin in (EVIL, "null", "http://127.0.0.1.evil.example"):
            r = ann.post("/api/me/keys", None, **{"X-Player-Key": KEY, "Origin": origin})
            refused(r, 403, "bad_origin")
        r = ann.post("/api/me/keys", None, **{"X-Player-Key": KEY, "Sec-Fetch-Site": "cross-site"})
        refused(r, 403, "bad_origin")
        assert sql(members.database_url, linked)[0][0] == before, "no key was taken over"
        for method, path, body in (
            ("POST", "/api/rooms", {"players": 2, "name": "Ann"}),
            ("POST", "/api/auth/logout-all", None),
            ("DELETE", "/api/me", None),
        ):
            r = ann.http.request(
                method, path, json=body, headers={CSRF_HEADER: ann.csrf, "Origin": EVIL}
            )
            refused(r, 403, "bad_origin")
        assert sql(members.database_url, "SELECT count(*) FROM rooms")[0][0] == 0
        assert ann.http.get("/api/me").status_code == 200, "still signed in"
        # a page of this site (PUBLIC_URL's origin) goes through, and so does a client
        # that names no origin (a script with the cookie and the CSRF value)
        own = members.url
        r = ann.post("/api/me/keys", None, **{"X-Player-Key": KEY, "Origin": own})
        assert r.status_code == 200, r.text
        assert sql(members.database_url, linked)[0][0] == before + 1
        r = ann.post("/api/rooms", {"players": 2, "name": "Ann"}, Origin=own)
        assert r.status_code == 201, r.text
        assert ann.post("/api/rooms", {"players": 2, "name": "Ann"}).status_code == 201
    finally:
        ann.close()


def test_allowed_origins_adds_origins(database_url: str, tmp_path: Path) -> None:
    proc = start(tmp_path, database_url, ALLOWED_ORIGINS="https://club.example.org")
    ann = Member(proc)
    try:
        r = ann.post("/api/rooms", {"players": 2, "name": "Ann"}, Origin="https://club.example.org")
        assert r.status_code == 201, r.text
        r = ann.post("/api/rooms", {"players": 2, "name": "Ann"}, Origin=EVIL)
        refused(r, 403, "bad_origin")
        # signing in from another site is refused too, cookie or not
        r = fetch.post(
            proc.url + "/api/auth/login",
            json={"username": "Ann_1", "password": PASSWORD},
            headers={"Origin": EVIL},
        )
        refused(r, 403, "bad_origin")
    finally:
        ann.close()
        proc.stop()


def first_answer(server: ServerProcess, rid: str, **headers: str) -> tuple[dict[str, Any], Any]:
    """A spectator socket's first message, and its close code if the server closed it."""

    async def run() -> tuple[dict[str, Any], Any]:
        url = f"{server.ws_url}/ws/rooms/{rid}"
        async with websockets.connect(url, additional_headers=headers or None) as ws:
            try:
                await ws.send(json.dumps({"type": "hello", "token": None, "last_seq": None}))
            except websockets.ConnectionClosed:
                pass  # refused before the hello: the error is still there to read
            first = json.loads(await asyncio.wait_for(ws.recv(), 20))
            code = None
            if first["type"] == "error":
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 20)
                except websockets.ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
            return first, code

    return run_async(run())


def test_a_foreign_pages_socket_with_a_members_cookie_is_refused(
    members: ServerProcess,
) -> None:
    """Today's bug: a socket opened by a page of another site, carrying a member's
    cookie, got the welcome and the room's snapshot in members-only mode."""
    ann = Member(members)
    try:
        r = ann.post("/api/rooms", {"players": 3, "name": "Ann"})
        assert r.status_code == 201, r.text
        rid = r.json()["room_id"]
        cookie = f"{SESSION_COOKIE}={ann.token}"
        for origin in (EVIL, "null"):
            first, code = first_answer(members, rid, Cookie=cookie, Origin=origin)
            assert (first["type"], first["code"]) == ("error", "bad_origin"), first
            assert code == 1008
        # this site's page, and a client without an Origin, are let in
        first, _ = first_answer(members, rid, Cookie=cookie, Origin=members.url)
        assert first["type"] == "welcome", first
        first, _ = first_answer(members, rid, Cookie=cookie)
        assert first["type"] == "welcome", first
    finally:
        ann.close()


def test_a_socket_without_a_cookie_may_come_from_anywhere(server: ServerProcess) -> None:
    """Bots and tests connect without cookies, and a page of another site without a
    session is nobody in particular (open mode)."""
    r = fetch.post(server.url + "/api/rooms", json={"players": 2, "name": "Ann"})
    rid = r.json()["room_id"]
    assert first_answer(server, rid, Origin=EVIL)[0]["type"] == "welcome"
    assert first_answer(server, rid)[0]["type"] == "welcome"


# ------------------------------------------------------------------------ OIDC


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Provider]:
    running = Provider(free_port(), tmp_path_factory.mktemp("oidc") / "provider.log")
    try:
        yield running
    finally:
        running.stop()


def test_oidc_without_public_url_refuses_to_start(tmp_path: Path) -> None:
    """A server reachable from elsewhere (HOST=0.0.0.0) with a provider and no
    PUBLIC_URL says so and stops, rather than send the provider's answers wherever a
    request's Host header says."""
    env = {
        **os.environ,
        **TEST_LIMITS,
        "OIDC_ISSUER": "https://sso.example.test/realms/club",
        "OIDC_CLIENT_ID": "krypkasino",
        "HOST": "0.0.0.0",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/db.sqlite",
    }
    env.pop("PUBLIC_URL", None)
    argv = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1"]
    try:
        done = subprocess.run(
            [*argv, "--port", str(free_port())],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the server started without PUBLIC_URL")
    assert done.returncode != 0
    assert "OIDC_ISSUER needs PUBLIC_URL" in done.stdout + done.stderr


def test_oidc_on_loopback_never_follows_a_foreign_host_header(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    """Without PUBLIC_URL (a server on loopback only), a sign-in started under another
    Host (DNS rebinding, a forged header) is refused: the provider's redirect_uri is
    never an address the request chose."""
    proc = ServerProcess(
        database_url, env=provider.settings_env(), log_path=tmp_path / "server.log"
    ).start()
    try:
        provider.sign_in_as("user-1", preferred_username="ada")
        r = fetch.get(
            proc.url + "/auth/oidc/login",
            headers={"Host": "evil.example", "Accept": "application/json"},
        )
        assert "evil.example" not in r.headers.get("location", ""), r.headers
        refused(r, 503, "public_url_needed")
        r = fetch.get(proc.url + "/auth/oidc/login")  # as the machine itself: fine
        assert r.status_code == 302
        assert "redirect_uri=http%3A%2F%2F127.0.0.1" in r.headers["location"]
    finally:
        proc.stop()
