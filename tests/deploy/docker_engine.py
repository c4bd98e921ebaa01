"""A real Docker engine for the tests of the image and docker-compose.yml, and local
stand-ins for the base images the project names, where no registry is reachable.

The Docker files are promises to self-hosters (the README's `docker compose up`), so
they are tested with a real engine: the image is built, run, upgraded and scaled.
This machine reaches the package registries but no image registry, so when
``python:3.11-slim``, ``postgres:16-alpine`` or ``redis:7-alpine`` is not in the
engine already, a stand-in is built under that very name (tests/deploy/standins/):
a Debian bookworm root made with ``debootstrap`` from the machine's own Debian
mirror, imported as a base image, with Debian's Python, PostgreSQL or Redis and
small entrypoints that honour what docker-compose.yml uses.  A real image of the
same name, where one is present, is used as it is.  Each stand-in carries a label
with a hash of its files, so a changed stand-in is built again and an unchanged one
is kept from run to run.

``python -m tests.deploy.docker_engine`` makes the stand-ins by hand (then the
README's commands work on such a machine as written).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STANDINS = Path(__file__).resolve().parent / "standins"
LABEL = "org.krypkasino.standin"
SUITE = "bookworm"
BASE_REPOSITORY = "krypkasino-standin/bookworm"
IMAGES = {
    "python:3.11-slim": "python.Dockerfile",
    "postgres:16-alpine": "postgres.Dockerfile",
    "redis:7-alpine": "redis.Dockerfile",
}
"""Each base image the project names, and the stand-in that replaces it here."""
CACHE = Path(os.environ.get("KRYPKASINO_DOCKER_CACHE", Path.home() / ".cache" / "krypkasino"))
"""Where the lock that lets one test process at a time build lives."""


class NoEngine(Exception):
    """No Docker engine answers here (the message says what was tried)."""


def run(
    args: list[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 600,
    check: bool = True,
    input_bytes: bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run a command; a failure raises with everything it printed."""
    done = subprocess.run(
        args,
        cwd=cwd,
        env=env,
        timeout=timeout,
        capture_output=True,
        text=input_bytes is None,
        input=input_bytes,
        check=False,
    )
    if isinstance(done.stdout, bytes):  # with input_bytes
        done = subprocess.CompletedProcess(
            done.args,
            done.returncode,
            done.stdout.decode(errors="replace"),
            done.stderr.decode(errors="replace"),
        )
    if check and done.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} exited {done.returncode}\n--- stdout\n{done.stdout[-6000:]}"
            f"\n--- stderr\n{done.stderr[-6000:]}"
        )
    return done


def engine_problem() -> str | None:
    """Why no Docker engine can be used here, or None when one answers."""
    if shutil.which("docker") is None:
        return "no docker command (Debian: apt-get install docker.io docker-compose)"
    done = subprocess.run(
        ["docker", "info", "--format", "{{.ServerVersion}}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        return f"no Docker engine answers (start dockerd): {done.stderr.strip()[:300]}"
    if compose_command() is None:
        return "neither `docker compose` nor `docker-compose` is installed"
    return None


def compose_command() -> list[str] | None:
    """Compose v2 (`docker compose`) where the plugin is installed, else v1
    (`docker-compose`, Debian's package): the README's commands work with either."""
    v2 = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    if v2.returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def image_label(image: str) -> str | None:
    """The stand-in label of a local image; "" for an image without one (a real
    image), None when the engine has no such image."""
    done = run(["docker", "image", "inspect", image], check=False)
    if done.returncode != 0:
        return None
    labels = json.loads(done.stdout)[0]["Config"].get("Labels") or {}
    return str(labels.get(LABEL, ""))


def debian_mirror() -> str:
    """The Debian mirror this machine's apt uses for the main suite (read from its
    sources, so the stand-ins come from where the machine's packages come from)."""
    found: list[str] = []
    sources = Path("/etc/apt/sources.list.d")
    for path in sorted(sources.glob("*.sources")) if sources.is_dir() else []:
        for stanza in path.read_text().split("\n\n"):
            fields = dict(
                line.split(":", 1) for line in stanza.splitlines() if re.match(r"^\w[\w-]*:", line)
            )
            suites = fields.get("Suites", "").split()
            if SUITE in suites and "deb" in fields.get("Types", "").split():
                found += fields.get("URIs", "").split()
    legacy = Path("/etc/apt/sources.list")
    if legacy.is_file():
        for line in legacy.read_text().splitlines():
            words = re.sub(r"\[[^]]*\]", "", line).split()
            if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
                found.append(words[1])
    if not found:
        raise NoEngine(f"no Debian {SUITE} mirror in this machine's apt sources")
    return found[0]


def _digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@contextlib.contextmanager
def build_lock(name: str) -> Iterator[None]:
    """One test process at a time builds ``name`` (xdist runs the Docker files on
    several workers; the second finds the image made)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _base_image() -> str:
    """The bare Debian root every stand-in starts from, made once per engine."""
    tag = f"{BASE_REPOSITORY}:minbase"
    if image_label(tag) is not None:
        return tag
    if shutil.which("debootstrap") is None:
        raise NoEngine("debootstrap is needed to make the stand-in base images")
    with tempfile.TemporaryDirectory(prefix="standin-root-") as tmp:
        root = Path(tmp) / "root"
        run(  # niced, as .ci/run's engine is: the other tests' waits come first
            ["nice", "-n", "10", "debootstrap", "--variant=minbase", SUITE, str(root)]
            + [debian_mirror()],
            timeout=900,
        )
        tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
        assert tar.stdout is not None
        imported = subprocess.run(
            ["docker", "import", "--change", 'CMD ["bash"]', "-", tag],
            stdin=tar.stdout,
            capture_output=True,
            check=False,
        )
        tar.stdout.close()
        tar.wait()
        if imported.returncode != 0:
            raise AssertionError(f"docker import failed: {imported.stderr.decode()[-2000:]}")
    return tag


def host_ca_bundle() -> Path:
    """The certificate authorities this machine's programs trust."""
    for candidate in (
        os.environ.get("SSL_CERT_FILE"),
        os.environ.get("PIP_CERT"),
        "/etc/ssl/certs/ca-certificates.crt",
    ):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    raise NoEngine("no CA certificate bundle found on this machine")


def ensure_base_images() -> dict[str, str]:
    """Make sure every base image the project names is in the engine; returns each
    name with what it is ("real" or "stand-in")."""
    kinds: dict[str, str] = {}
    with build_lock("standins"):
        base: str | None = None
        for image, dockerfile in IMAGES.items():
            name = dockerfile.split(".")[0]
            files = sorted(p for p in STANDINS.iterdir() if p.name.startswith(name))
            digest = _digest(*files)
            label = image_label(image)
            if label == "":
                kinds[image] = "real"
                continue
            kinds[image] = "stand-in"
            if label == digest:
                continue
            base = base or _base_image()
            with tempfile.TemporaryDirectory(prefix="standin-") as tmp:
                context = Path(tmp)
                for path in files:
                    shutil.copy2(path, context / path.name)
                shutil.copy(host_ca_bundle(), context / "host-ca.crt")
                run(
                    [
                        "docker",
                        "build",
                        "-q",
                        "--build-arg",
                        f"BASE={base}",
                        "--label",
                        f"{LABEL}={digest}",
                        "-f",
                        str(context / dockerfile),
                        "-t",
                        image,
                        str(context),
                    ],
                    timeout=900,
                )
    return kinds


def build_project_image(tag: str, *, commit: str | None = None) -> float:
    """``docker build`` the project (as the README says) under ``tag``; from the
    files of ``commit`` when given (an earlier release).  Returns the seconds it took."""
    start = time.monotonic()
    with build_lock(f"image-{tag.replace('/', '_').replace(':', '_')}"):
        if commit is None:
            run(["docker", "build", "-q", "-t", tag, str(ROOT)], timeout=1200)
        else:
            tar = subprocess.run(
                ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                capture_output=True,
                check=False,
            )
            if tar.returncode != 0:
                raise NoEngine(f"commit {commit} is not in this clone: {tar.stderr.decode()[:300]}")
            run(["docker", "build", "-q", "-t", tag, "-"], input_bytes=tar.stdout, timeout=1200)
    return time.monotonic() - start


def main() -> None:
    problem = engine_problem()
    if problem:
        raise SystemExit(problem)
    for image, kind in ensure_base_images().items():
        print(f"{image}: {kind}")


if __name__ == "__main__":
    main()
