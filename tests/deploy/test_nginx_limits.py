"""deploy/nginx.conf's abuse limits, enforced by a real nginx in front of a real server.

The example is run nearly as written: only its ports (free loopback ports instead of
80 and 443), its upstream (one test server) and its certificate (a throwaway
self-signed pair) are changed. nginx and openssl come from Debian packages
(nginx-light, openssl); without them this skips locally and fails under CI=true.
"""

from __future__ import annotations

import re
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, require_service, run_async
from tests.server.harness import ServerProcess, create_room, free_port

NGINX = ROOT / "deploy" / "nginx.conf"


def _nginx() -> str | None:
    return shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, ServerProcess]]:
    """(https base URL of nginx, the server behind it)."""
    nginx, openssl = _nginx(), shutil.which("openssl")
    require_service(
        nginx is not None and openssl is not None,
        "nginx or openssl not found (Debian packages nginx-light, openssl)",
    )
    tmp = tmp_path_factory.mktemp("nginx")
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/db.sqlite", log_path=tmp / "server.log")
    server.start()
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=play.example.com",
            "-keyout",
            str(tmp / "key.pem"),
            "-out",
            str(tmp / "cert.pem"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    https, http = free_port(), free_port()
    site = NGINX.read_text(encoding="utf-8")
    for pattern, replacement in [
        (r"listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;"),
        (r"listen 80;", f"listen 127.0.0.1:{http};"),
        (r"\n\s*listen \[::\]:\d+( ssl)?;", ""),
        (r"(ssl_certificate\s+)\S+;", rf"\g<1>{tmp}/cert.pem;"),
        (r"(ssl_certificate_key\s+)\S+;", rf"\g<1>{tmp}/key.pem;"),
        (
            r"(\n\s*server 127\.0\.0\.1:\d+ [^;]*;)+",
            f"\n    server 127.0.0.1:{server.port} max_fails=3 fail_timeout=10s;",
        ),
    ]:
        site, n = re.subn(pattern, replacement, site)
        assert n, pattern
    (tmp / "site.conf").write_text(site, encoding="utf-8")
    temp = "\n".join(
        f"  {d} {tmp}/{d};"
        for d in [
            "client_body_temp_path",
            "proxy_temp_path",
            "fastcgi_temp_path",
            "uwsgi_temp_path",
            "scgi_temp_path",
        ]
    )
    (tmp / "nginx.conf").write_text(
        f"daemon off;\nmaster_process off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\n"
        f"events {{}}\nhttp {{\n  access_log off;\n{temp}\n  include {tmp}/site.conf;\n}}\n",
        encoding="utf-8",
    )
    proc = subprocess.Popen(
        [nginx, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(tmp / "nginx.conf")],
        stderr=subprocess.PIPE,
    )
    base = f"https://127.0.0.1:{https}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                if httpx.get(base + "/healthz", verify=False, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "nginx did not start proxying"
            time.sleep(0.1)
        yield base, server
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        server.stop()


def _client(base: str, address: str = "127.0.0.1") -> httpx.Client:
    """A client connecting from ``address`` (each test its own loopback address, so
    that one test's requests do not count against another's limits)."""
    transport = httpx.HTTPTransport(verify=False, local_address=address)
    return httpx.Client(
        base_url=base, transport=transport, timeout=10, headers={"Host": "play.example.com"}
    )


def test_a_body_over_16_kib_is_refused_by_the_proxy(proxied) -> None:
    base, _ = proxied
    with _client(base) as c:
        r = c.post(
            "/api/rooms",
            content=b"x" * (16 * 1024 + 1),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 413 and r.headers["server"].startswith("nginx")
        assert (
            c.post(
                "/api/rooms", content=b"x" * 1000, headers={"Content-Type": "application/json"}
            ).status_code
            == 422
        )


def test_rooms_and_code_lookups_are_rate_limited_per_address(proxied) -> None:
    base, _ = proxied
    with _client(base, "127.0.0.2") as c:
        body = {"players": 2, "name": "Ann", "bots": 1}
        created = [c.post("/api/rooms", json=body).status_code for _ in range(10)]
        assert created == [201] * 10
        refused = c.post("/api/rooms", json=body)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert "your address" in refused.json()["message"], "nginx's answer, not the server's"
        codes = [c.get("/api/codes/ZZZZZZ").status_code for _ in range(31)]
        assert codes == [404] * 30 + [429]
        # Requests no limit names are not counted ...
        assert {c.get("/healthz").status_code for _ in range(40)} == {200}
    # ... and each address has its own count.
    with _client(base, "127.0.0.3") as c:
        assert c.post("/api/rooms", json=body).status_code == 201


def test_websockets_are_limited_to_20_per_address(proxied) -> None:
    import websockets
    from websockets.exceptions import InvalidStatus

    base, server = proxied
    room = create_room(server.url, 2, bots=1)["room_id"]
    url = base.replace("https://", "wss://") + f"/ws/rooms/{room}"
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    source = {"local_addr": ("127.0.0.4", 0)}

    async def attempt() -> int:
        open_ = []
        try:
            for _ in range(20):
                open_.append(await websockets.connect(url, ssl=context, **source))
            try:
                extra = await websockets.connect(url, ssl=context, **source)
            except InvalidStatus as exc:
                return exc.response.status_code
            await extra.close()
            return 101
        finally:
            for ws in open_:
                await ws.close()

    assert run_async(attempt()) == 429
