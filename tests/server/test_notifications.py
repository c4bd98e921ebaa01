"""A player's notices through real server processes (issue 32): the settings API by
player key and by account (CSRF as for every signed-in change), an address confirmed
by the link a real local SMTP server received (tests/notify/smtp_server.py), the
one-click unsubscribe of RFC 8058 without a login, and the daily digest sent once by
two processes racing, with links that open the game; nothing for an address whose
player has no game waiting.  SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.accounts.tokens import CSRF_COOKIE, CSRF_HEADER
from tests import fetch
from tests.notify.smtp_server import SmtpServer, headers, link

from .harness import ServerProcess, create_room, free_port, sql
from .process import looked_again

ALL_ON = {"turn": True, "deadline": True, "digest": True}


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    s = SmtpServer()
    yield s
    s.close()


def start(
    database_url: str, log: Any, env: dict[str, str], public_url: str | None = None
) -> ServerProcess:
    """A server process whose PUBLIC_URL is its own address (or the one given: every
    process of one site names the same)."""
    port = free_port()
    public = public_url or f"http://127.0.0.1:{port}"
    return ServerProcess(
        database_url, port=port, env={"PUBLIC_URL": public, **env}, log_path=log
    ).start()


@pytest.fixture
def mail_server(database_url: str, tmp_path: Any, smtp: SmtpServer) -> Iterator[ServerProcess]:
    env = {**smtp.env, "DIGEST_HOUR": "23", "MAIL_CONFIRM_INTERVAL": "0"}
    proc = start(database_url, tmp_path / "server.log", env)
    try:
        yield proc
    finally:
        proc.stop()


def key_headers(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


def get_settings(base: str, key: str) -> Any:
    r = fetch.get(f"{base}/api/notifications/settings", headers=key_headers(key), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def put_settings(base: str, key: str | None, body: Any) -> httpx.Response:
    return fetch.request(
        "PUT",
        f"{base}/api/notifications/settings",
        json=body,
        headers=key_headers(key) if key else {},
        timeout=10,
    )


def give_address(base: str, key: str, address: str, lang: str = "en") -> httpx.Response:
    return fetch.post(
        f"{base}/api/notifications/email",
        json={"address": address, "lang": lang},
        headers=key_headers(key),
        timeout=10,
    )


def test_settings_by_player_key_and_bad_bodies(server: ServerProcess) -> None:
    ann, bo = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    none = fetch.get(f"{server.url}/api/notifications/settings", timeout=10)
    assert none.status_code == 401
    assert put_settings(server.url, None, ALL_ON).status_code == 401
    got = get_settings(server.url, ann)
    assert got == {**ALL_ON, "email": {"available": False, "address": None, "confirmed": False}}
    quiet = {"turn": False, "deadline": True, "digest": False}
    r = put_settings(server.url, ann, quiet)
    assert r.status_code == 200 and {k: r.json()[k] for k in quiet} == quiet
    assert {k: get_settings(server.url, ann)[k] for k in quiet} == quiet
    assert {k: get_settings(server.url, bo)[k] for k in quiet} == ALL_ON, "another key's own"
    for bad in (
        {"turn": False, "deadline": True},
        {**quiet, "turn": "no"},
        {**quiet, "turn": 0},
        {**quiet, "email": True},
        [],
    ):
        r = put_settings(server.url, ann, bad)
        assert r.status_code == 422, (bad, r.text)
        assert set(r.json()) >= {"code", "message"}
    assert {k: get_settings(server.url, ann)[k] for k in quiet} == quiet, "nothing changed"
    # without SMTP_HOST the server mails nothing
    off = give_address(server.url, ann, "ann@example.org")
    assert (off.status_code, off.json()["code"]) == (404, "email_off")


def test_settings_of_a_signed_in_account_need_the_csrf_token(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as browser:
        key = secrets.token_urlsafe(32)
        r = browser.post(
            "/api/auth/register",
            json={"username": "Notes_1", "password": "correct horse"},
            headers=key_headers(key),
        )
        assert r.status_code == 201, r.text
        csrf = {CSRF_HEADER: browser.cookies[CSRF_COOKIE]}
        quiet = {"turn": False, "deadline": False, "digest": True}
        refused = browser.put("/api/notifications/settings", json=quiet)
        assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
        r = browser.put("/api/notifications/settings", json=quiet, headers=csrf)
        assert r.status_code == 200, r.text
        # the account's, without any key; another key's are its own
        got = browser.get("/api/notifications/settings").json()
        assert {k: got[k] for k in quiet} == quiet
        other = get_settings(server.url, secrets.token_urlsafe(24))
        assert {k: other[k] for k in quiet} == ALL_ON
        # deleting the account deletes its settings
        mine = "SELECT count(*) FROM notice_settings WHERE owner LIKE 'a:%'"
        assert sql(server.database_url, mine) == [(1,)]
        assert browser.delete("/api/me", headers=csrf).status_code in (200, 204)
        assert sql(server.database_url, mine) == [(0,)]


def test_an_address_is_confirmed_by_its_link_and_unsubscribed_in_one_click(
    mail_server: ServerProcess, smtp: SmtpServer
) -> None:
    base, key = mail_server.url, secrets.token_urlsafe(24)
    assert get_settings(base, key)["email"] == {
        "available": True,
        "address": None,
        "confirmed": False,
    }
    bad = give_address(base, key, "not an address")
    assert (bad.status_code, bad.json()["code"]) == (422, "bad_address")
    r = give_address(base, key, "Ann@Example.org", "fr")
    assert r.status_code == 202, r.text
    assert r.json() == {"address": "Ann@example.org", "confirmed": False}
    (mail,) = smtp.wait_for("Ann@example.org", 1)
    h = headers(mail)
    assert h["subject"] == "Confirmez votre adresse pour Krypkasino"
    assert h["list-unsubscribe-post"] == "List-Unsubscribe=One-Click"
    unsubscribe = h["list-unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{base}/notifications/email/unsubscribe?token=")
    confirm = link(mail, "/notifications/email/confirm")
    assert confirm.startswith(f"{base}/notifications/email/confirm?token=")
    assert get_settings(base, key)["email"]["confirmed"] is False
    page = fetch.get(confirm, timeout=10)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "confirmée" in page.text and "Content-Security-Policy" in page.headers
    assert get_settings(base, key)["email"] == {
        "available": True,
        "address": "Ann@example.org",
        "confirmed": True,
    }
    assert fetch.get(confirm, timeout=10).status_code == 404, "a link confirms once"
    # the link opened in a browser: a page with a button, and nothing changes yet
    page = fetch.get(unsubscribe, timeout=10)
    assert page.status_code == 200 and '<form method="post"' in page.text
    assert get_settings(base, key)["email"]["confirmed"] is True
    # the mail client's one-click POST (RFC 8058): no cookie, no key
    done = httpx.post(
        unsubscribe,
        content=b"List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        timeout=10,
    )
    assert done.status_code == 200, done.text
    assert get_settings(base, key)["email"]["address"] is None
    again = httpx.post(unsubscribe, content=b"List-Unsubscribe=One-Click", timeout=10)
    assert again.status_code == 404


def test_the_page_button_unsubscribes_a_signed_in_browser_without_a_csrf_token(
    mail_server: ServerProcess, smtp: SmtpServer
) -> None:
    with httpx.Client(base_url=mail_server.url, timeout=20) as browser:
        key = secrets.token_urlsafe(32)
        r = browser.post(
            "/api/auth/register",
            json={"username": "Mail_1", "password": "correct horse"},
            headers=key_headers(key),
        )
        assert r.status_code == 201, r.text
        csrf = {CSRF_HEADER: browser.cookies[CSRF_COOKIE]}
        r = browser.post("/api/notifications/email", json={"address": "mia@example.org"})
        assert r.status_code == 403, "the API's changes still want the CSRF token"
        r = browser.post(
            "/api/notifications/email", json={"address": "mia@example.org"}, headers=csrf
        )
        assert r.status_code == 202, r.text
        (mail,) = smtp.wait_for("mia@example.org", 1)
        unsubscribe = headers(mail)["list-unsubscribe"].strip("<>")
        # the page's form posts with the session cookie and no CSRF header
        done = browser.post(unsubscribe, data={"List-Unsubscribe": "One-Click"})
        assert done.status_code == 200, done.text
        assert browser.get("/api/notifications/settings").json()["email"]["address"] is None


def test_two_processes_send_one_digest_whose_links_open_the_game(
    database_url: str, tmp_path: Any, smtp: SmtpServer
) -> None:
    keys = {a: secrets.token_urlsafe(24) for a in ("ann@example.org", "bo@example.org")}
    env = {**smtp.env, "DIGEST_HOUR": "0", "DIGEST_CHECK_SECONDS": "0.2"}
    one = start(database_url, tmp_path / "one.log", env)
    two: ServerProcess | None = None
    try:
        two = start(database_url, tmp_path / "two.log", env, public_url=one.url)
        for address, key in keys.items():
            assert give_address(one.url, key, address).status_code == 202
            (mail,) = smtp.wait_for(address, 1)
            assert fetch.get(link(mail, "/confirm"), timeout=10).status_code == 200
        # a correspondence room of Ann and Bo, two days a move, nobody connected
        room = create_room(
            one.url,
            2,
            player=keys["ann@example.org"],
            pace="correspondence",
            days_per_move=2,
        )
        rid = room["room_id"]
        r = fetch.post(
            f"{two.url}/api/rooms/{rid}/seats",
            json={"name": "Bo", "player": keys["bo@example.org"]},
            timeout=10,
        )
        assert r.status_code == 201, r.text
        moves = "SELECT seat FROM room_deadlines WHERE room_id = :r AND kind = 'move'"
        mover = sql(database_url, moves, r=rid)
        assert len(mover) == 1, "the room waits for one seat"
        waiting, other = (
            ("ann@example.org", "bo@example.org")
            if mover[0][0] == 0
            else ("bo@example.org", "ann@example.org")
        )
        (_, digest) = smtp.wait_for(waiting, 2)
        looked_again([one, two], "digest")  # three more looks by both processes
        assert len(smtp.to(waiting)) == 2, "one digest"
        assert len(smtp.to(other)) == 1, "no digest: nothing waits for the other"
        h = headers(digest)
        assert h["subject"] == "Krypkasino: 1 game(s) wait for your move"
        assert h["list-unsubscribe-post"] == "List-Unsubscribe=One-Click"
        assert f"Room {room['code']}: 1 d 23 h left" in digest.body
        game = link(digest, f"/r/{rid}")
        assert game == f"{one.url}/r/{rid}"
        page = fetch.get(game, timeout=10)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        # and its unsubscribe link works against the real app
        unsubscribe = headers(digest)["list-unsubscribe"].strip("<>")
        assert httpx.post(unsubscribe, content=b"List-Unsubscribe=One-Click").status_code == 200
        assert get_settings(two.url, keys[waiting])["email"]["address"] is None
        assert get_settings(two.url, keys[other])["email"]["confirmed"] is True
        days = sql(database_url, "SELECT address, day FROM email_digests")
        assert len(days) == 1 and days[0][0] == waiting
    finally:
        one.stop()
        if two is not None:
            two.stop()
