"""How xdist shares the suite's files among its workers: ``--dist loadfile`` (a file's
tests on one worker, so that a file's shared server starts once), with the Docker
tests on a worker of their own.

The three Docker files (tests/deploy/test_docker_*.py) are one test each and the
longest of the suite: about eleven minutes of a worker between them on a loaded
machine, most of it waiting, on an image's build and then on containers' health
checks (every 5 and 15 s).  Run by the four workers that run everything else, that
waiting was a tenth of their time (and three of them waited on one image's build at
the start).  A fifth worker now takes the Docker files and nothing else, one after
the other; the four others take everything else.  More workers for everything were
slower (session 21: six); this one mostly sleeps.  Once the Docker files have all
been handed out it takes any file like the others (the Docker tests, no longer
polling Compose, take about three minutes between them when the machine is quiet, and
the worker was idle for the rest of the run).  With a single worker, or once the one
set aside has gone, any worker takes any file.
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling

DOCKER_FILES = "tests/deploy/test_docker_"
"""The start of the Docker test files' paths."""


class DockerAside(LoadFileScheduling):  # type: ignore[misc]  # xdist has no types
    """``loadfile``, except that one worker takes the Docker files, and nothing else
    until they are all handed out."""

    aside: str | None = None
    """The gateway id of the worker set aside ("" when none is)."""

    def _takes(self, node: Any, scope: str) -> bool:
        """Whether ``node`` is to run the file ``scope``."""
        live = {n.gateway.id for n in self.nodes}
        if self.aside is None:
            self.aside = self.nodes[-1].gateway.id if len(live) > 1 else ""
        docker = scope.startswith(DOCKER_FILES)
        if self.aside not in live:
            return True
        if node.gateway.id != self.aside:
            return not docker
        return docker or not any(s.startswith(DOCKER_FILES) for s in self.workqueue)

    def _assign_work_unit(self, node: Any) -> None:
        """The first file in the queue that ``node`` takes; none left: it stops (as
        ``loadfile`` stops a worker when the queue is empty)."""
        scope = next((s for s in self.workqueue if self._takes(node, s)), None)
        if scope is None:
            node.shutdown()
            return
        work_unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(n) for n, done in work_unit.items() if not done])
