"""Fixtures of the Docker tests (tests/deploy/test_docker_*.py): a Docker engine
(skipped without one, except under CI=true), the base images (real, or stand-ins
built here), and the image of the release under test.

The images take minutes to make (the stand-ins' Debian roots, the project's wheel and
its dependencies; an earlier release's image for the upgrade): one test process
starts making them as soon as it has collected the Docker tests, in the background,
while it runs other tests; tests/conftest.py starts the Docker files only once a
third of the others are under way.  Their fixtures then find the images made (or
wait, on the build lock, for the build under way) instead of keeping three test
workers waiting on one build."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import __version__
from tests.conftest import require_service
from tests.deploy.docker_engine import (
    NoEngine,
    build_project_image,
    engine_problem,
    ensure_base_images,
)
from tests.deploy.docker_play import Stack, project_files

IMAGE = f"krypkasino-test:{__version__}"
"""The image of the release under test (never the self-hoster's own `krypkasino` tag)."""

UPGRADE_FILE = "tests/deploy/test_docker_upgrade.py"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start making the images in the background when Docker tests are to run: in one
    test process only (xdist's first worker, or the only process)."""
    files = {item.nodeid.split("::", 1)[0] for item in items}
    if not any(f.startswith("tests/deploy/test_docker_") for f in files):
        return
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0" or engine_problem() is not None:
        return
    ahead = threading.Thread(
        target=_build_ahead, args=(UPGRADE_FILE in files,), name="docker-build", daemon=True
    )
    ahead.start()


def _build_ahead(old_release: bool) -> None:
    """The base images, the image under test, and release 0.1.0's for the upgrade.  A
    failure is left to the fixtures, which build again and report it."""
    try:
        ensure_base_images()
        build_project_image(IMAGE)
        if old_release:
            from tests.deploy.test_docker_upgrade import OLD_IMAGE, RELEASE_0_1_0

            build_project_image(OLD_IMAGE, commit=RELEASE_0_1_0)
    except Exception:  # noqa: BLE001 - the fixtures build again and report what failed
        return


@pytest.fixture(scope="module")
def engine() -> dict[str, str]:
    """A Docker engine with every base image the project names; what each base is."""
    problem = engine_problem()
    require_service(problem is None, f"Docker tests: {problem}")
    try:
        return ensure_base_images()
    except NoEngine as exc:
        require_service(False, f"Docker tests: {exc}")
        raise


@pytest.fixture(scope="module")
def image(engine: dict[str, str]) -> str:
    build_project_image(IMAGE)
    return IMAGE


@pytest.fixture
def stack_folder(tmp_path: Path) -> Path:
    """A self-hoster's clone: the project's files in a folder named as the project."""
    return project_files(tmp_path / "krypkasino")


@pytest.fixture
def make_stack(stack_folder: Path) -> Iterator[type[Stack]]:
    """Stacks made in the test's folder; every one is taken down (volumes too) after."""
    made: list[Stack] = []

    def factory(image: str) -> Stack:
        stack = Stack(stack_folder, image=image)
        made.append(stack)
        return stack

    yield factory  # type: ignore[misc]
    for stack in made:
        stack.down()
