"""The settings panel's notices (issue 32) in Chromium: which events notify, kept by
the server across a reload; on a server that mails, an address given, the
confirmation mail received by a real local SMTP server (tests/notify/smtp_server.py)
and its link confirming it; on one that does not, no email part at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import PHONE, Server
from tests.browser.test_alerts_settings import open_settings
from tests.browser.test_looks import shoot
from tests.browser.waits import WAIT_MS
from tests.notify.smtp_server import SmtpServer, link

pytestmark = pytest.mark.browser


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    s = SmtpServer()
    yield s
    s.close()


@pytest.fixture
def mail_server(chromium: Any, tmp_path: Any, smtp: SmtpServer) -> Iterator[Server]:
    srv = Server(tmp_path, env={**smtp.env, "MAIL_CONFIRM_INTERVAL": "0"})
    yield srv
    srv.stop()


def event(page: Any, name: str) -> Any:
    return page.locator(f"[data-notice={name}] input")


def test_without_email_the_panel_offers_the_push_events_only(new_page: Any) -> None:
    page = new_page(PHONE)
    page.goto("/")
    open_settings(page)
    page.wait_for_selector("[data-notice=turn]")
    assert event(page, "turn").is_checked() and event(page, "deadline").is_checked()
    assert page.locator("[data-notice=digest]").count() == 0
    assert page.locator("[data-testid=notice-email]").count() == 0
    assert not page.errors


def test_events_and_an_address_are_chosen_and_confirmed(
    browser: Any, mail_server: Server, smtp: SmtpServer, screenshots: Any
) -> None:
    ctx = browser.new_context(viewport=PHONE, base_url=mail_server.url, locale="sv-SE")
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        open_settings(page)
        page.wait_for_selector("[data-notice=digest]")
        assert all(event(page, k).is_checked() for k in ("turn", "deadline", "digest"))
        with page.expect_response("**/api/notifications/settings") as saved:
            event(page, "deadline").uncheck()
        assert saved.value.status == 200
        page.fill("[data-testid=email-address]", "ann@example.org")
        page.click("[data-testid=email-send]")
        state = page.wait_for_selector("[data-testid=email-state]")
        assert "ann@example.org" in state.text_content()
        page.locator("[data-testid=notices]").scroll_into_view_if_needed()
        shoot(page, screenshots, "phone-settings-notices-sv")
        (mail,) = smtp.wait_for("ann@example.org", 1)
        assert "Bekräfta" in str(mail.message["Subject"])
        confirm = urlsplit(link(mail, "/notifications/email/confirm"))
        page.goto(f"{confirm.path}?{confirm.query}")
        assert "bekräftad" in page.locator("#notice").text_content()
        shoot(page, screenshots, "phone-email-confirmed-sv")
        page.goto("/")
        open_settings(page)
        page.wait_for_selector("[data-notice=digest]")
        assert not event(page, "deadline").is_checked(), "kept by the server"
        assert event(page, "turn").is_checked()
        state = page.wait_for_selector("[data-testid=email-state]")
        assert "Sammanfattningar skickas till ann@example.org" in state.text_content()
        page.click("[data-testid=email-remove]")
        page.wait_for_selector("[data-testid=email-address]")
        assert not errors
    finally:
        ctx.close()
