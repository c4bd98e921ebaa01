"""Signing in through an OpenID Connect provider, end to end: a real server process
(SQLite and PostgreSQL) configured with the test provider (its own process,
tests/accounts/oidc_provider.py), and an HTTP client that follows every redirect
and keeps cookies as a browser does.

Each refusal is checked from outside: its status and code, no session cookie, no
account made (the ``accounts`` table counted), and, where it matters, whether the
provider's token endpoint was asked at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
import pytest

from tests.accounts.provider_process import Provider
from tests.server.process import ServerProcess, sql

HTML = {"Accept": "text/html,application/xhtml+xml"}


@pytest.fixture
def server(database_url: str, provider: Provider, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    proc = ServerProcess(
        database_url, env=provider.settings_env("Test ID"), log_path=tmp_path / "server.log"
    ).start()
    try:
        yield proc
    finally:
        proc.stop()


def browser() -> httpx.Client:
    return httpx.Client(follow_redirects=True, timeout=20, headers=HTML)


def sign_in(server: ServerProcess, client: httpx.Client) -> httpx.Response:
    """Click "Sign in with ...": to the provider, back to the callback, to the lobby."""
    return client.get(server.url + "/auth/oidc/login")


def me(server: ServerProcess, client: httpx.Client) -> httpx.Response:
    return client.get(server.url + "/api/me", headers={"Accept": "application/json"})


def accounts(server: ServerProcess) -> int:
    return int(sql(server.database_url, "SELECT count(*) FROM accounts")[0][0])


def until_callback(server: ServerProcess, client: httpx.Client) -> str:
    """Start a sign-in and let the provider approve it, stopping short of the callback:
    the callback URL the provider sends the browser to."""
    to_provider = client.get(server.url + "/auth/oidc/login", follow_redirects=False)
    assert to_provider.status_code == 302
    back = client.get(to_provider.headers["location"], follow_redirects=False)
    assert back.status_code == 302
    callback = back.headers["location"]
    assert callback.startswith(server.url + "/auth/oidc/callback?")
    return callback


def with_query(url: str, **changes: str) -> str:
    parts = urlsplit(url)
    query = {**dict(parse_qsl(parts.query)), **changes}
    return parts._replace(query=urlencode(query)).geturl()


def test_the_account_panel_is_told_the_providers_name(server: ServerProcess) -> None:
    got = httpx.get(server.url + "/api/auth/options").json()
    assert got["providers"] == [{"name": "Test ID", "login_url": "/auth/oidc/login"}]
    assert got["password_login"] is True


def test_the_first_sign_in_makes_the_account_and_the_second_reuses_it(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    with browser() as first:
        landed = sign_in(server, first)
        assert landed.status_code == 200
        assert landed.url == server.url + "/?signin=provider"
        assert [r.status_code for r in landed.history] == [302, 302, 303]
        assert landed.history[0].headers["location"].startswith(fresh_provider.issuer)
        answer = me(server, first)
        assert answer.status_code == 200, answer.text
        assert answer.json()["username"] == "ada"
        made = answer.json()["created_ms"]
    assert accounts(server) == 1
    with browser() as second:
        sign_in(server, second)
        again = me(server, second).json()
    assert (again["username"], again["created_ms"]) == ("ada", made)
    assert accounts(server) == 1


def test_another_person_with_a_taken_name_gets_a_name_of_their_own(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    with browser() as first:
        sign_in(server, first)
    fresh_provider.sign_in_as("user-2", preferred_username="ada")
    with browser() as second:
        sign_in(server, second)
        assert me(server, second).json()["username"] == "ada2"
    assert accounts(server) == 2


def test_a_tampered_state_is_refused_and_changes_nothing(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    with browser() as client:
        callback = until_callback(server, client)
        asked = fresh_provider.counts()["token"]
        forged = with_query(callback, state="forged-" + "x" * 30)
        page = client.get(forged, follow_redirects=False)
        assert page.status_code == 303, "a browser goes back to the lobby, told why"
        assert page.headers["location"] == "/?signin_error=bad_state"
        answer = client.get(forged, headers={"Accept": "application/json"})
        assert answer.status_code == 400
        assert answer.json()["code"] == "bad_state"
        assert me(server, client).status_code == 401
    assert fresh_provider.counts()["token"] == asked, "the code was never exchanged"
    assert accounts(server) == 0


def test_a_callback_from_another_browser_is_refused(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    """A sign-in started in one browser cannot be finished in another (the victim of a
    login CSRF): its state is not that browser's."""
    with browser() as attacker:
        callback = until_callback(server, attacker)
    with browser() as victim:
        answer = victim.get(callback, headers={"Accept": "application/json"})
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_state")
        assert me(server, victim).status_code == 401
    assert accounts(server) == 0


def test_a_used_callback_is_refused_even_with_its_cookie(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    with browser() as client:
        callback = until_callback(server, client)
        state = dict(parse_qsl(urlsplit(callback).query))["state"]
        assert client.get(callback).url == server.url + "/?signin=provider"
    asked = fresh_provider.counts()["token"]
    with browser() as replay:  # someone who captured the callback and the state cookie
        replay.cookies.set("kk_oidc_state", state, path="/auth/oidc/callback")
        answer = replay.get(callback, headers={"Accept": "application/json"})
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_state")
        assert me(server, replay).status_code == 401
    assert fresh_provider.counts()["token"] == asked
    assert accounts(server) == 1


def test_a_replayed_code_is_refused_by_the_provider_and_reported(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    with browser() as client:
        used = until_callback(server, client)
        client.get(used)
    code = dict(parse_qsl(urlsplit(used).query))["code"]
    refused = fresh_provider.counts()["token_refused"]
    with browser() as replay:
        fresh = until_callback(server, replay)
        answer = replay.get(with_query(fresh, code=code), headers={"Accept": "application/json"})
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_code")
        assert me(server, replay).status_code == 401
    assert fresh_provider.counts()["token_refused"] == refused + 1
    assert accounts(server) == 1


@pytest.mark.parametrize(("claim", "value"), [("nonce", "another"), ("aud", "someone-else")])
def test_an_id_token_with_a_wrong_claim_is_refused(
    server: ServerProcess, fresh_provider: Provider, claim: str, value: str
) -> None:
    with browser() as client:
        callback = until_callback(server, client)
        fresh_provider.misbehave(**{claim: value})
        answer = client.get(callback, headers={"Accept": "application/json"})
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_id_token")
        assert claim in answer.json()["message"]
        assert me(server, client).status_code == 401
        assert "kk_session" not in client.cookies
    assert accounts(server) == 0


def test_a_server_without_a_provider_has_no_button_and_no_sign_in(
    database_url: str,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    proc = ServerProcess(database_url, log_path=tmp_path / "plain.log").start()
    try:
        assert httpx.get(proc.url + "/api/auth/options").json()["providers"] == []
        answer = httpx.get(proc.url + "/auth/oidc/login")
        assert (answer.status_code, answer.json()["code"]) == (404, "oidc_off")
    finally:
        proc.stop()


def test_the_browsers_rooms_move_to_the_account_after_signing_in(
    server: ServerProcess, fresh_provider: Provider
) -> None:
    """A person who played before signing in keeps their rooms: back from the provider,
    the page hands over its player key, and the room is the account's on any device."""
    key = "k" * 32
    with browser() as client:
        made = client.post(
            server.url + "/api/rooms",
            json={"players": 2, "bots": 1, "name": "Ada", "player": key},
            headers={"Accept": "application/json"},
        )
        assert made.status_code == 201, made.text
        room_id = made.json()["room_id"]
        sign_in(server, client)
        csrf = client.cookies["kk_csrf"]
        moved = client.post(
            server.url + "/api/me/keys",
            headers={"X-Player-Key": key, "X-CSRF-Token": csrf, "Accept": "application/json"},
        )
        assert moved.status_code == 200, moved.text
        assert moved.json() == {"seats_moved": 1}
        without_csrf = client.post(server.url + "/api/me/keys", headers={"X-Player-Key": key})
        assert without_csrf.status_code == 403
    with browser() as other_device:
        sign_in(server, other_device)
        games = other_device.get(
            server.url + "/api/me/games", headers={"Accept": "application/json"}
        )
        assert games.status_code == 200, games.text
        assert [g["room_id"] for g in games.json()["games"]] == [room_id]


def test_handing_over_keys_needs_a_signed_in_account(server: ServerProcess) -> None:
    answer = httpx.post(server.url + "/api/me/keys", headers={"X-Player-Key": "k" * 32})
    assert (answer.status_code, answer.json()["code"]) == (401, "sign_in_required")


def test_members_only_without_passwords_still_signs_in_through_the_provider(
    database_url: str,
    fresh_provider: Provider,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    """The provider as the only way in (PASSWORD_LOGIN=false) on a members-only server:
    the sign-in's routes are open to the signed-out, and the account it makes is in."""
    env = {**fresh_provider.settings_env("Club"), "PASSWORD_LOGIN": "false", "ACCESS": "members"}
    proc = ServerProcess(database_url, env=env, log_path=tmp_path / "members.log").start()
    try:
        options = httpx.get(proc.url + "/api/auth/options").json()
        assert (options["access"], options["password_login"]) == ("members", False)
        assert httpx.get(proc.url + "/api/rooms/public").status_code == 401
        with browser() as client:
            sign_in(proc, client)
            assert me(proc, client).json()["username"] == "ada"
            listed = client.get(proc.url + "/api/rooms/public", headers={"Accept": "*/*"})
            assert listed.status_code == 200
    finally:
        proc.stop()


def test_a_sign_in_started_on_one_process_finishes_on_another(
    postgres_url: str,
    fresh_provider: Provider,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    """Behind a load balancer the callback may reach another process: the sign-in under
    way is in the database, not in the process that started it."""
    env = fresh_provider.settings_env()
    one = ServerProcess(postgres_url, env=env, log_path=tmp_path / "one.log").start()
    two = ServerProcess(postgres_url, env=env, log_path=tmp_path / "two.log").start()
    try:
        with browser() as client:
            callback = until_callback(one, client)
            state = client.cookies["kk_oidc_state"]  # cookies ignore ports: two gets it
            landed = client.get(callback.replace(one.url, two.url, 1))
            assert landed.url == two.url + "/?signin=provider"
            assert me(two, client).json()["username"] == "ada"
            # the first process, with the state cookie put back, finds it used
            client.cookies.set("kk_oidc_state", state, path="/auth/oidc/callback")
            again = client.get(callback, headers={"Accept": "application/json"})
            assert (again.status_code, again.json()["code"]) == (400, "bad_state")
    finally:
        two.stop()
        one.stop()


def test_starting_sign_ins_is_rate_limited_per_address(
    database_url: str,
    fresh_provider: Provider,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    """Each start keeps a row for ten minutes: past OIDC_LOGIN_PER_MINUTE an address is
    refused (429, Retry-After) before anything is stored."""
    env = {**fresh_provider.settings_env(), "OIDC_LOGIN_PER_MINUTE": "2"}
    proc = ServerProcess(database_url, env=env, log_path=tmp_path / "limited.log").start()
    try:
        login = proc.url + "/auth/oidc/login"
        for _ in range(2):
            assert httpx.get(login).status_code == 302
        refused = httpx.get(login, headers={"Accept": "application/json"})
        assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
        assert int(refused.headers["retry-after"]) >= 1
        page = httpx.get(login, headers=HTML)
        assert (page.status_code, page.headers["location"]) == (303, "/?signin_error=rate_limited")
        assert sql(proc.database_url, "SELECT count(*) FROM oidc_pending")[0][0] == 2
    finally:
        proc.stop()
