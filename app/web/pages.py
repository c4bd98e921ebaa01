"""The client's HTML page, as served at / and /r/{room}: ``static/index.html`` with its
asset URLs versioned and the server's version filled in.

Rendered once at start-up. The page itself is never cached without asking
(``no-cache`` with an ETag, so a repeat visit costs a 304): it is what tells the browser
which versioned URLs to load.
"""

from __future__ import annotations

import html
import re

from .assets import Asset, make_asset

VERSION_META = '<meta name="krypkasino-version" content="">'
"""Where the page carries the server's version; the client's footer reads it."""

_ASSET_URL = re.compile(r'\b(src|href)="/static/')

PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8">
<title>Krypkasino Online</title><h1>Krypkasino Online</h1>
<p>The server runs; the browser client is not installed here (static/index.html).</p>"""


def render_index(template: str, static_prefix: str, version: str) -> str:
    """index.html with ``/static/`` URLs under ``static_prefix`` and ``version`` in its meta.

    Raises ValueError when the template lacks the version meta or loads nothing from
    /static/, so that a changed index.html fails at start-up (and in the tests), not in
    a browser.
    """
    if template.count(VERSION_META) != 1:
        raise ValueError(f"index.html must contain {VERSION_META} once")
    page, replaced = _ASSET_URL.subn(rf'\1="{static_prefix}', template)
    if not replaced:
        raise ValueError('index.html loads nothing from "/static/"')
    filled = VERSION_META.replace('content=""', f'content="{html.escape(version)}"')
    return page.replace(VERSION_META, filled)


def index_page(template: str | None, static_prefix: str, version: str) -> Asset:
    """The page to serve: the rendered client, or a placeholder when it is not installed."""
    text = PLACEHOLDER if template is None else render_index(template, static_prefix, version)
    return make_asset(text.encode("utf-8"), "text/html; charset=utf-8")
