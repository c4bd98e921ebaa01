"""The suite's xdist scheduler (tests/scheduling.py): the Docker files go to one
worker of their own, which then helps with the rest."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from tests.scheduling import DockerAside

COMPOSE = "tests/deploy/test_docker_compose.py"
UPGRADE = "tests/deploy/test_docker_upgrade.py"
PLAIN = "tests/engine/test_moves.py"


@dataclass(frozen=True)
class Node:
    """A stand-in worker: the scheduler reads only its gateway's id."""

    name: str

    @property
    def gateway(self) -> SimpleNamespace:
        return SimpleNamespace(id=self.name)


def scheduler(workers: int, queue: list[str]) -> tuple[DockerAside, list[Any]]:
    """A DockerAside over ``workers`` stand-in nodes (only their gateway ids are read)
    and a work queue of the files ``queue``."""
    nodes = [Node(f"gw{i}") for i in range(workers)]
    sched = DockerAside.__new__(DockerAside)
    sched.assigned_work = {node: {} for node in nodes}
    sched.workqueue = {scope: {} for scope in queue}
    return sched, nodes


def test_the_last_worker_alone_takes_the_docker_files_first() -> None:
    sched, nodes = scheduler(5, [COMPOSE, UPGRADE, PLAIN])
    aside = nodes[-1]
    assert sched._takes(aside, COMPOSE) and not sched._takes(aside, PLAIN)
    assert all(not sched._takes(n, COMPOSE) and sched._takes(n, PLAIN) for n in nodes[:-1])


def test_once_the_docker_files_are_handed_out_their_worker_takes_any_file() -> None:
    sched, nodes = scheduler(5, [PLAIN])
    assert sched._takes(nodes[-1], PLAIN)
    assert all(sched._takes(n, PLAIN) for n in nodes[:-1])


def test_one_worker_takes_everything() -> None:
    sched, (only,) = scheduler(1, [COMPOSE, PLAIN])
    assert sched._takes(only, COMPOSE) and sched._takes(only, PLAIN)
