"""The small pages an email's links open (issue 32): "address confirmed", "unsubscribe?"
with its one button, "unsubscribed".  Plain HTML under the client's policy (no
script, the client's stylesheet), in the language the address was given in."""

from __future__ import annotations

import html

from starlette.responses import HTMLResponse

from .security import page_headers


def notice_page(
    host: str | None,
    lang: str,
    text: str,
    *,
    status_code: int = 200,
    form_action: str | None = None,
    button: str | None = None,
) -> HTMLResponse:
    """A page saying ``text``; with ``form_action``, a form posting there (the
    unsubscribe button: a mail client's prefetch of the link changes nothing)."""
    form = ""
    if form_action is not None and button is not None:
        form = (
            f'<form method="post" action="{html.escape(form_action)}">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            f'<button type="submit">{html.escape(button)}</button></form>'
        )
    body = (
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex">'
        "<title>Krypkasino</title>"
        '<link rel="stylesheet" href="/static/css/offline.css"></head>'
        '<body><main class="offline"><h1>Krypkasino</h1>'
        f'<p id="notice">{html.escape(text)}</p>{form}'
        '<p><a href="/">Krypkasino</a></p></main></body></html>'
    )
    headers = {**page_headers(host), "Cache-Control": "no-store"}
    return HTMLResponse(body, status_code=status_code, headers=headers)
