"""The Python client's tests (clients/python) run against real server processes
(tests/server/harness.py).  The client is its own package, not installed in the
project's environment: its source folder goes on the path here, as PYTHONPATH does
for the example bots the tests start."""

import sys

from tests.clients.paths import CLIENT_SRC
from tests.server.conftest import (  # noqa: F401  (the fixtures, on SQLite and PostgreSQL)
    server,
    shared_server,
)

if str(CLIENT_SRC) not in sys.path:
    sys.path.insert(0, str(CLIENT_SRC))
