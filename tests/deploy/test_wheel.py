"""The package as people install it: a wheel, built the way a release is built, installed
in a fresh virtual environment, run from a folder with no source tree in sight.

The wheel is built from a clean copy of the project's files (what git tracks, as a
fresh clone has them) by way of a source distribution, so both the sdist and the wheel
must carry the client and the migrations. Everything runs offline: the build uses the
setuptools of this (dev) environment (``--no-build-isolation``), and the new
environment's dependencies are requirements.lock, hash-checked, which pip takes from
its cache after ``./dev.sh`` installed them. 20 to 40 s: marked ``packaging``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from app import __version__
from tests import fetch
from tests.conftest import ROOT, require_service
from tests.server.harness import free_port

pytestmark = pytest.mark.packaging

START_TIMEOUT = 30.0


def _run(cmd: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(cmd)}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _project_files() -> list[str]:
    git = shutil.which("git")
    require_service(
        git is not None and (ROOT / ".git").exists(),
        "git and a git checkout are needed to list the project's files",
    )
    out = subprocess.run(
        [git, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    return [name for name in out.decode().split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """krypkasino-*.whl, built from an sdist of a clean copy of the project."""
    tmp = tmp_path_factory.mktemp("wheel")
    src, dist = tmp / "src", tmp / "dist"
    for name in _project_files():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    _run(
        [
            sys.executable,
            "-c",
            "import sys, setuptools.build_meta as b; print(b.build_sdist(sys.argv[1]))",
            str(dist),
        ],
        cwd=src,
    )
    sdists = list(dist.glob("krypkasino-*.tar.gz"))
    assert len(sdists) == 1, sdists
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(dist),
            str(sdists[0]),
        ],
        cwd=tmp,
    )
    wheels = list(dist.glob("krypkasino-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the locked dependencies and the wheel."""
    env = tmp_path_factory.mktemp("venv") / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", str(env)], cwd=env.parent)
    python = env / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
    _run([*pip, "--require-hashes", "-r", str(ROOT / "requirements.lock")], cwd=env.parent)
    _run([*pip, "--no-deps", "--no-index", str(wheel)], cwd=env.parent)
    return env


def test_the_wheel_carries_the_client_the_migrations_and_the_licence(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"krypkasino-{__version__}.dist-info/METADATA").decode()
        entry_points = zf.read(f"krypkasino-{__version__}.dist-info/entry_points.txt").decode()
    project = _project_files()
    for folder, packaged in (("static/", "app/_static/"), ("migrations/", "app/_migrations/")):
        expected = {packaged + n.removeprefix(folder) for n in project if n.startswith(folder)}
        assert expected and expected <= names, f"missing: {sorted(expected - names)}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert f"krypkasino-{__version__}.dist-info/licenses/LICENSE" in names
    assert f"\nVersion: {__version__}\n" in metadata
    assert "\nLicense-Expression: MIT\n" in metadata
    assert "krypkasino = app.cli:main" in entry_points


def test_the_installed_wheel_serves_the_client_and_migrates(venv: Path, tmp_path: Path) -> None:
    work = tmp_path / "elsewhere"  # no app/, static/ or migrations/ here
    work.mkdir()
    where = _run([str(venv / "bin" / "python"), "-c", "import app; print(app.__file__)"], cwd=work)
    assert Path(where.stdout.strip()).is_relative_to(venv), "app is imported from the wheel"

    db = tmp_path / "db" / "krypkasino.db"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(DATABASE_URL=f"sqlite+aiosqlite:///{db}", LOG_LEVEL="warning")
    log = (tmp_path / "server.log").open("w+")
    proc = subprocess.Popen(
        [str(venv / "bin" / "krypkasino"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        health = None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                health = fetch.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        log.flush()
        output = (tmp_path / "server.log").read_text()
        assert health is not None and health.status_code == 200, output
        assert health.json() == {"status": "ok", "version": __version__}

        # The real client, not the placeholder, with its versioned files.
        page = fetch.get(base + "/").text
        assert "not installed here" not in page
        assert f'<meta name="krypkasino-version" content="{__version__}">' in page
        prefix = page.split('<script type="module" src="', 1)[1].split("js/main.js", 1)[0]
        assert prefix.startswith("/static/") and len(prefix) == len("/static/0123456789ab/")
        for name, kind in (
            ("js/main.js", "text/javascript"),
            ("js/ui/app.js", "text/javascript"),
            ("css/app.css", "text/css"),
            ("i18n/sv.json", "application/json"),
        ):
            r = fetch.get(base + prefix + name)
            assert r.status_code == 200 and r.headers["content-type"].startswith(kind), name
            assert r.content == (ROOT / "static" / name).read_bytes(), name

        # The database was migrated: a room can be created, and Alembic is at its head.
        r = fetch.post(base + "/api/rooms", json={"players": 2, "name": "Ann", "bots": 1})
        assert r.status_code == 201, r.text
        heads = [p.name.split("_")[0] for p in (ROOT / "migrations" / "versions").glob("*.py")]
        with sqlite3.connect(db) as conn:
            (version,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        assert version == max(heads)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()
