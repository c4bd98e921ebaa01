"""Fixtures of the Docker tests (tests/deploy/test_docker_*.py): a Docker engine
(skipped without one, except under CI=true), the base images (real, or stand-ins
built here), and the image of the release under test."""

from __future__ import annotations

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
