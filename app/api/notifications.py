"""HTTP routes of a player's notices (issue 32, docs/protocol.md "Notices"): which
events notify, the email address and its confirmation, and the links every mail
carries (confirm, one-click unsubscribe per RFC 8058).

A player is the signed-in account, else the browser's ``X-Player-Key``; without
either the settings answer 401.  State-changing calls with the session cookie pass
the CSRF gate (app/api/session_gate.py) like every other; the unsubscribe link is
the one exception there: its token is its proof, and a mail client posts it
without any cookie (RFC 8058).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import Field, StringConstraints
from starlette.requests import HTTPConnection

from app.core.clock import now_ms
from app.notify.email import UNSUBSCRIBE_PATH, BadAddress, EmailNotices, TooSoon, normalized
from app.notify.mail_text import words
from app.notify.mailer import MailFailed
from app.notify.service import LANGS
from app.notify.settings import NoticeChoices, NoticeSettings, owner_of
from app.web.notice_pages import notice_page

from .deps import get_services
from .errors import error
from .players import KeyHeader, _keys
from .schemas import Strict
from .session import MaybeAccount

router = APIRouter(prefix="/api/notifications", tags=["notifications"])
pages = APIRouter(prefix="/notifications/email", tags=["notifications"], include_in_schema=False)

Lang = Annotated[str, StringConstraints(pattern="^(" + "|".join(LANGS) + ")$")]
Token = Annotated[str, Query(min_length=1, max_length=100)]


def _choices(conn: HTTPConnection) -> NoticeChoices:
    notices = get_services(conn).notices
    assert notices is not None, "built with the server"
    return notices


def _email(conn: HTTPConnection) -> EmailNotices | None:
    return get_services(conn).email


ChoicesDep = Annotated[NoticeChoices, Depends(_choices)]
EmailDep = Annotated[EmailNotices | None, Depends(_email)]


class SettingsBody(Strict):
    turn: bool
    deadline: bool
    digest: bool


class EmailBody(Strict):
    address: Annotated[str, Field(min_length=3, max_length=254)]
    lang: Lang = "en"
    """The language of the mails and of the pages their links open."""


def _owner(account: Any, x_player_key: str | None) -> str:
    keys = _keys(x_player_key, required=account is None)
    owner = owner_of(account.id if account is not None else None, keys[0] if keys else None)
    assert owner is not None  # _keys answered 401 without either
    return owner


async def _answer(settings: NoticeSettings, email: EmailNotices | None, owner: str) -> Any:
    address = await email.status(owner) if email is not None else None
    return {
        **settings.as_json(),
        "email": {
            "available": email is not None,
            "address": address.address if address else None,
            "confirmed": bool(address and address.confirmed_ms is not None),
        },
    }


@router.get("/settings")
async def get_settings(
    choices: ChoicesDep, email: EmailDep, account: MaybeAccount, x_player_key: KeyHeader = None
) -> Any:
    """This player's choice of events, and their email address if the server mails."""
    owner = _owner(account, x_player_key)
    return await _answer(await choices.get(owner), email, owner)


@router.put("/settings")
async def put_settings(
    body: SettingsBody,
    choices: ChoicesDep,
    email: EmailDep,
    account: MaybeAccount,
    x_player_key: KeyHeader = None,
) -> Any:
    """Choose which events notify: ``turn``, ``deadline`` (24 h / 1 h), ``digest``."""
    owner = _owner(account, x_player_key)
    chosen = NoticeSettings(body.turn, body.deadline, body.digest)
    await choices.put(owner, chosen, now_ms())
    return await _answer(chosen, email, owner)


def _email_off() -> Response:
    return error(404, "email_off", "this server sends no email")


@router.post("/email", status_code=202)
async def give_address(
    body: EmailBody, email: EmailDep, account: MaybeAccount, x_player_key: KeyHeader = None
) -> Any:
    """Keep this address (replacing any earlier one) and mail it a confirmation link;
    digests go to it once it is confirmed."""
    owner = _owner(account, x_player_key)
    if email is None:
        return _email_off()
    try:
        await email.register(owner, body.address, body.lang)
    except BadAddress as exc:
        return error(422, exc.code, str(exc))
    except TooSoon as exc:
        refused = error(429, "too_soon", str(exc))
        refused.headers["Retry-After"] = str(exc.retry_after)
        return refused
    except MailFailed:
        return error(502, "mail_failed", "the mail server did not take the mail; try later")
    return {"address": normalized(body.address), "confirmed": False}


@router.delete("/email", status_code=204, response_model=None)
async def forget_address(
    email: EmailDep, account: MaybeAccount, x_player_key: KeyHeader = None
) -> Response:
    """Forget this player's address (404 when there is none)."""
    owner = _owner(account, x_player_key)
    if email is None:
        return _email_off()
    if not await email.forget(owner):
        return error(404, "not_found", "no address for this player")
    return Response(status_code=204)


def _host(request: Request) -> str | None:
    return request.headers.get("host")


@pages.get("/confirm")
async def confirm(request: Request, email: EmailDep, token: Token) -> Response:
    """The confirmation link: a small page saying the address is confirmed."""
    if email is None:
        return notice_page(_host(request), "en", words("en")["unknown_link"], status_code=404)
    done = await email.confirm(token)
    if done is None:
        return notice_page(_host(request), "en", words("en")["unknown_link"], status_code=404)
    return notice_page(_host(request), done.lang, words(done.lang)["confirmed_page"])


@pages.get("/unsubscribe")
async def unsubscribe_page(request: Request, email: EmailDep, token: Token) -> Response:
    """The unsubscribe link opened in a browser: a page with one button (a link
    checker or prefetch fetching it changes nothing)."""
    target = await email.unsubscribe_target(token) if email is not None else None
    if target is None:
        return notice_page(_host(request), "en", words("en")["unknown_link"], status_code=404)
    w = words(target.lang)
    return notice_page(
        _host(request),
        target.lang,
        w["unsubscribe_question"].format(address=target.address),
        form_action=f"{UNSUBSCRIBE_PATH}?token={token}",
        button=w["unsubscribe_button"],
    )


@pages.post("/unsubscribe")
async def unsubscribe(request: Request, email: EmailDep, token: Token) -> Response:
    """One-click unsubscribe (RFC 8058): the mail client's POST, or the page's button;
    no sign-in, the token is the proof."""
    target = await email.unsubscribe_target(token) if email is not None else None
    if email is None or target is None or not await email.unsubscribe(token):
        return notice_page(_host(request), "en", words("en")["unknown_link"], status_code=404)
    return notice_page(_host(request), target.lang, words(target.lang)["unsubscribed_page"])
