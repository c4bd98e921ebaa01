"""Upgrading a compose stack from an image built from an earlier release, rolling
back with the backup the upgrade took, and upgrading again, with a real Docker
engine and the commands docs/deploy.md gives.

The earlier release is 0.1.0 (the last commit before 0.2.0's version, built from
this clone's history with `git archive`): its server fills the database, the
upgrade (`docker compose up -d --build`) backs it up into the `backups` volume
and migrates it with every row kept, the rollback restores that backup over the
upgraded database and runs the old release on it, and the next upgrade migrates
again (before, PostgreSQL kept the later migrations' tables through the restore
and the second `migrate` failed with `relation "accounts" already exists`).
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from app import __version__
from tests.conftest import require_service
from tests.deploy.docker_engine import NoEngine, build_project_image
from tests.deploy.docker_play import Stack, Table

RELEASE_0_1_0 = "fbfec29bf75167247780b30b72d86e9dd659057e"
"""The last commit of release 0.1.0 (the next one, b2be802, made it 0.2.0)."""
OLD_IMAGE = "krypkasino-test:0.1.0"


@pytest.fixture(scope="module")
def old_image(engine: dict[str, str]) -> str:
    try:
        build_project_image(OLD_IMAGE, commit=RELEASE_0_1_0)
    except NoEngine as exc:  # a shallow clone: the release is not in its history
        require_service(False, f"the upgrade test builds release 0.1.0: {exc}")
    return OLD_IMAGE


def version(stack: Stack) -> str:
    return str(httpx.get(stack.base + "/healthz", timeout=5).json()["version"])


def kept(rows: dict[str, int], before: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The tables of ``before`` whose row counts differ now: (before, now)."""
    return {t: (n, rows.get(t, -1)) for t, n in before.items() if rows.get(t, -1) != n}


def test_upgrade_from_0_1_0_keeps_every_row_and_a_rollback_upgrades_again(
    image: str, old_image: str, make_stack: Any
) -> None:
    stack: Stack = make_stack(old_image)
    stack.sh('echo "POSTGRES_PASSWORD=$(openssl rand -hex 24)" > .env')
    stack("up", "-d")
    stack.wait_healthy(timeout=240)
    assert version(stack) == "0.1.0"

    finished = Table.open(stack.base)
    halfway = Table.open(stack.base, deals=2)
    try:
        assert finished.play() >= 20
        assert halfway.play(5) == 5
    finally:
        finished.close()
        halfway.close()
    old_rows = stack.row_counts()
    assert old_rows["rooms"] == 2 and old_rows["events"] > 30
    old_revision = stack.psql("SELECT version_num FROM alembic_version")

    # The upgrade: this folder already holds the new release (the `git pull`), and
    # the image is the one this release's compose file builds.
    stack.env["KRYPKASINO_IMAGE"] = image
    stack("up", "-d", "--build")
    stack.wait_healthy()
    assert version(stack) == __version__
    assert not kept(stack.row_counts(), old_rows), "the upgrade kept every row"
    listing = stack("run", "--rm", "migrate", "sh", "-c", "ls /app/backups").stdout.split()
    backups = [n for n in listing if re.fullmatch(rf"krypkasino\.schema-{old_revision}\..+", n)]
    assert len(backups) == 1, listing
    assert finished.summary()["status"] == "finished"
    halfway.connect()
    try:
        assert halfway.play(3) == 3, "a room of the old release plays on after the upgrade"
    finally:
        halfway.close()

    # The rollback (docs/deploy.md): stop the server, restore the backup the upgrade
    # took over the upgraded database, run the old release on it.
    stack("stop", "app")
    stack(
        "run", "--rm", "migrate", "krypkasino", "restore", "--force", f"/app/backups/{backups[0]}"
    )
    stack.env["KRYPKASINO_IMAGE"] = old_image
    stack("up", "-d")
    stack.wait_healthy()
    assert version(stack) == "0.1.0"
    assert stack.row_counts() == old_rows, "the old release runs on exactly what it had"

    # And upgrading again works (it failed on PostgreSQL before the restore removed
    # what the backup does not have).
    stack.env["KRYPKASINO_IMAGE"] = image
    stack("up", "-d")
    stack.wait_healthy()
    assert version(stack) == __version__
    assert not kept(stack.row_counts(), old_rows)
    halfway.connect()
    try:
        assert halfway.play() > 0
    finally:
        halfway.close()
    assert halfway.summary()["status"] == "finished"
