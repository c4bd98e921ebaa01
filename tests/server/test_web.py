"""The client's page and static files as a real server process sends them: caching,
compression, HEAD, conditional requests and security headers."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app import __version__
from app.resources import static_dir
from tests import fetch

from .harness import ServerProcess

STATIC = static_dir()
IMMUTABLE = "public, max-age=31536000, immutable"
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("web")
    proc = ServerProcess(f"sqlite+aiosqlite:///{tmp}/db.sqlite", log_path=tmp / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def _get_bytes(
    server: ServerProcess, path: str, accept_encoding: str
) -> tuple[httpx.Response, bytes]:
    """The response and its body as sent (httpx would undo the gzip in .content)."""
    with (
        httpx.Client(base_url=server.url, timeout=10) as client,
        client.stream("GET", path, headers={"Accept-Encoding": accept_encoding}) as r,
    ):
        return r, b"".join(r.iter_raw())


def _asset_prefix(server: ServerProcess) -> str:
    page = fetch.get(server.url + "/").text
    match = re.search(r'src="(/static/[0-9a-f]{12}/)js/main\.js"', page)
    assert match, page
    return match.group(1)


def test_pages_are_revalidated_and_carry_the_security_headers(server: ServerProcess) -> None:
    for path in ("/", "/r/0123456789abcdef0123456789abcdef", "/r/anything?watch=1"):
        r = fetch.get(server.url + path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", path
        assert f'<meta name="krypkasino-version" content="{__version__}">' in r.text
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert f"ws://127.0.0.1:{server.port}" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"


def test_head_answers_like_get_without_a_body(server: ServerProcess) -> None:
    for path in ("/", "/r/abc", _asset_prefix(server) + "js/main.js"):
        get = fetch.get(server.url + path, headers={"Accept-Encoding": "identity"})
        head = fetch.head(server.url + path, headers={"Accept-Encoding": "identity"})
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["content-length"] == str(len(get.content)), path
        assert head.headers["etag"] == get.headers["etag"]


def test_versioned_files_are_immutable_others_revalidated(server: ServerProcess) -> None:
    prefix = _asset_prefix(server)
    r = fetch.get(server.url + prefix + "js/main.js")
    assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE
    assert r.headers["content-type"] == "text/javascript; charset=utf-8"
    assert r.content == (STATIC / "js" / "main.js").read_bytes()
    # Unversioned, or under another build's version (a rolling upgrade): served, not kept.
    for path in ("/static/js/main.js", "/static/0123456789ab/js/main.js"):
        r = fetch.get(server.url + path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", path
        assert r.content == (STATIC / "js" / "main.js").read_bytes()
    r = fetch.get(server.url + prefix + "js/nothing.js")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert fetch.get(server.url + prefix + "../../pyproject.toml").status_code == 404


def test_every_module_the_client_imports_loads_under_the_version(server: ServerProcess) -> None:
    """Relative imports resolve under /static/<version>/: walk them all from the four
    entry points (the client's main.js, the classic bootwatch.js loaded before it, the
    admin page's admin.js and the offline page's offline.js); the service worker is
    served at /sw.js, not as a module."""
    prefix = _asset_prefix(server)
    entries = ["main.js", "bootwatch.js", "admin.js", "offline.js"]
    todo = [prefix + "js/" + entry for entry in entries]
    seen: set[str] = set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        r = fetch.get(server.url + url)
        assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE, url
        assert r.headers["content-type"].startswith("text/javascript"), url
        base = httpx.URL(server.url + url)
        for spec in IMPORT.findall(r.text):
            todo.append(base.join(spec).path)
    on_disk = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.*js")} - {"sw.js"}
    loaded = {u.removeprefix(prefix) for u in seen}
    assert loaded == on_disk, f"not reached: {on_disk - loaded}"


def test_text_is_sent_gzipped_to_those_who_accept_it(server: ServerProcess) -> None:
    prefix = _asset_prefix(server)
    for path, name in [
        (prefix + "js/main.js", "js/main.js"),
        (prefix + "css/app.css", "css/app.css"),
        (prefix + "i18n/sv.json", "i18n/sv.json"),
        (prefix + "favicon.svg", "favicon.svg"),
        ("/", "index.html"),
    ]:
        on_disk = (STATIC / name).read_bytes()
        r, raw = _get_bytes(server, path, "gzip, deflate, br")
        assert r.headers["content-encoding"] == "gzip", path
        assert r.headers["vary"] == "Accept-Encoding"
        assert len(raw) < len(on_disk) and int(r.headers["content-length"]) == len(raw)
        if name != "index.html":  # the page is index.html with its URLs filled in
            assert gzip.decompress(raw) == on_disk, path
        r, raw = _get_bytes(server, path, "identity")
        assert "content-encoding" not in r.headers, path
        if name != "index.html":
            assert raw == on_disk


def test_a_client_that_has_the_file_gets_304(server: ServerProcess) -> None:
    for path in ("/", _asset_prefix(server) + "css/app.css"):
        for encoding in ("gzip", "identity"):
            first = fetch.get(server.url + path, headers={"Accept-Encoding": encoding})
            again = fetch.get(
                server.url + path,
                headers={"Accept-Encoding": encoding, "If-None-Match": first.headers["etag"]},
            )
            assert again.status_code == 304 and again.content == b"", (path, encoding)
            assert again.headers["etag"] == first.headers["etag"]
        other = fetch.get(server.url + path, headers={"If-None-Match": '"something-else"'})
        assert other.status_code == 200


def test_api_responses_carry_nosniff_and_referrer_policy(server: ServerProcess) -> None:
    for r in (
        fetch.get(server.url + "/healthz"),
        fetch.get(server.url + "/api/codes/ZZZZZZ"),
        fetch.post(server.url + "/", json={}),
    ):
        assert r.headers["x-content-type-options"] == "nosniff", r.request.url
        assert r.headers["referrer-policy"] == "no-referrer"


def test_healthz_tells_the_version(server: ServerProcess) -> None:
    assert fetch.get(server.url + "/healthz").json() == {"status": "ok", "version": __version__}


def test_api_pages_are_off_by_default_and_the_schema_is_served(server: ServerProcess) -> None:
    assert fetch.get(server.url + "/docs").status_code == 404
    assert fetch.get(server.url + "/redoc").status_code == 404
    schema = fetch.get(server.url + "/openapi.json").json()
    assert schema["info"]["version"] == __version__ and "/api/rooms" in schema["paths"]


def test_api_docs_setting_turns_the_api_pages_on(tmp_path: Path) -> None:
    proc = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite", env={"API_DOCS": "true"})
    proc.start()
    try:
        r = fetch.get(proc.url + "/docs")
        assert r.status_code == 200 and "swagger" in r.text.lower()
        assert fetch.get(proc.url + "/redoc").status_code == 200
    finally:
        proc.stop()
