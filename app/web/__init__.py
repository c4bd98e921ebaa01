"""The browser-facing side of the server: the client's page and its static files.

- ``/``, ``/r/{room}`` (and its ``/history``, ``/replay/{m}/{n}``,
  ``/learn/{m}/{n}``), ``/continue``, ``/rules``, ``/tutorial``, ``/daily`` and
  ``/daily/{date}`` (the deal of the day, issue 32), the clubs' pages and
  ``/tournaments/{event}`` (issue 49): the page
  (``pages.py``), with a strict CSP (``security.py``); ``no-cache``.
- ``/static/<version>/<file>``: a file of the client, the version being this
  build's; immutable, a year.
- ``/static/<file>``: the same file, unversioned (old links, tools); ``no-cache``.
- ``/static/<other version>/<file>``: today's file under another build's URL;
  ``no-cache``.
- ``/sw.js``: the service worker (at the root, so that its scope is the whole site),
  and ``/offline``: the page it shows when the server cannot be reached (issue 32:
  an installable client); both ``no-cache``.
- Any other path, asked for by a browser (``Accept: text/html``, GET or HEAD, not
  under ``/api/``, ``/static/`` or ``/ws``): the page with status 404, which shows
  the client's "not found" screen (``notfound.py``); API clients keep the JSON 404.

The last row is for rolling upgrades: a page from a process that has the new
version may ask an old process for its files (or the other way round); it gets
the file this process has, but not marked immutable, so no cache keeps a file
under a version it does not belong to.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from .assets import AssetTable, looks_like_version
from .http import IMMUTABLE, REVALIDATE, send_asset
from .http import json_error as error
from .notfound import wants_page
from .pages import index_page
from .security import page_headers


def install(app: FastAPI, static_root: Path | None, version: str) -> AssetTable | None:
    """Add the page and static routes to ``app``; returns the loaded files (None
    without a client)."""
    table = AssetTable.load(static_root) if static_root is not None else None
    template = None
    if table is not None and (index := table.get("index.html")) is not None:
        template = index.body.decode("utf-8")
    prefix = f"/static/{table.version}/" if table is not None else "/static/"
    page = index_page(template, prefix, version)

    async def client_page(request: Request) -> Response:
        return send_asset(request, page, REVALIDATE, page_headers(request.headers.get("host")))

    async def not_found(request: Request, exc: Exception) -> Response:
        """A browser's unknown page gets the client (its "not found" screen), with 404."""
        if wants_page(request.method, request.url.path, request.headers.get("accept", "")):
            headers = page_headers(request.headers.get("host"))
            return send_asset(request, page, REVALIDATE, headers, status_code=404)
        detail = exc.detail if isinstance(exc, StarletteHTTPException) else "Not Found"
        return error(404, "not_found", str(detail))

    def root_file(name: str, page_like: bool) -> Callable[[Request], Awaitable[Response]]:
        """A file of the client served at the site's root rather than under /static/."""

        async def serve(request: Request) -> Response:
            asset = table.get(name) if table is not None else None
            if asset is None:
                return error(404, "not_found", f"no such file: /{name}")
            headers = page_headers(request.headers.get("host")) if page_like else {}
            return send_asset(request, asset, REVALIDATE, headers)

        return serve

    async def static_file(request: Request, path: str) -> Response:
        first, _, rest = path.partition("/")
        cache = REVALIDATE
        if rest and looks_like_version(first):
            cache = IMMUTABLE if table is not None and first == table.version else REVALIDATE
            path = rest
        asset = table.get(path) if table is not None else None
        if asset is None:
            return error(404, "not_found", f"no such file: /static/{path}")
        return send_asset(request, asset, cache)

    methods = ["GET", "HEAD"]
    app.add_api_route("/", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/r/{room}", client_page, methods=methods, include_in_schema=False)
    # The room's history and its deals' replays; a seat moving to this device.
    app.add_api_route("/r/{room}/history", client_page, methods=methods, include_in_schema=False)
    app.add_api_route(
        "/r/{room}/replay/{match}/{deal}", client_page, methods=methods, include_in_schema=False
    )
    # Learning from one's mistakes in a finished deal (the coach, issue 31).
    app.add_api_route(
        "/r/{room}/learn/{match}/{deal}", client_page, methods=methods, include_in_schema=False
    )
    app.add_api_route("/continue", client_page, methods=methods, include_in_schema=False)
    # The rules page and the tutorial, both run by the client alone.
    app.add_api_route("/rules", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/tutorial", client_page, methods=methods, include_in_schema=False)
    # The installed app: its service worker and the page it shows offline.
    app.add_api_route("/sw.js", root_file("sw.js", False), methods=methods, include_in_schema=False)
    app.add_api_route(
        "/offline", root_file("offline.html", True), methods=methods, include_in_schema=False
    )
    # The leaderboard and an account's profile (issue 34).
    app.add_api_route("/leaderboard", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/ladder", client_page, methods=methods, include_in_schema=False)
    # Clubs (issue 49): mine, joining through an invite link, a club's page.
    app.add_api_route("/clubs", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/clubs/join", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/clubs/{club}", client_page, methods=methods, include_in_schema=False)
    # A tournament's page: its plan, entrants, tables and standings.
    app.add_api_route("/tournaments/{event}", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/daily", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/daily/{date}", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/players/{name}", client_page, methods=methods, include_in_schema=False)
    app.add_api_route("/static/{path:path}", static_file, methods=methods, include_in_schema=False)
    # A 404 by status is looked up before the HTTPException handler of app/api/errors.py.
    app.add_exception_handler(404, not_found)
    return table
