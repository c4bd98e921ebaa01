"""A bot's event stream read in a test (issue 51, ``GET /api/bot/stream``): a thread
reads its lines as they come; the test waits for the line it expects (never for a
time), and may see whether the stream ended."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import httpx

from .harness import ServerProcess
from .token_people import bearer


class StreamReader:
    """One open stream (``status`` 200), or the refusal it got (``status``, ``body``)."""

    def __init__(self, server: ServerProcess, token: str) -> None:
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.keep_alives = 0
        self.ended = threading.Event()
        self._opened = threading.Event()
        self.status = 0
        self.body: dict[str, Any] = {}
        self.http = httpx.Client(base_url=server.url, timeout=httpx.Timeout(20, read=60))
        self._token = token
        self._response: httpx.Response | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self._opened.wait(30), "the stream did not answer"

    def _read(self) -> None:
        try:
            with self.http.stream("GET", "/api/bot/stream", headers=bearer(self._token)) as r:
                self.status, self._response = r.status_code, r
                if r.status_code != 200:
                    self.body = json.loads(r.read())
                    self._opened.set()
                    return
                assert r.headers["content-type"].startswith("application/x-ndjson")
                self._opened.set()
                for line in r.iter_lines():
                    if line.strip():
                        self.lines.put(json.loads(line))
                    else:
                        self.keep_alives += 1
        except (httpx.HTTPError, ValueError):
            pass
        finally:
            self._opened.set()
            self.ended.set()
            self.lines.put(None)

    def told(self, kind: str, timeout: float = 30, **fields: Any) -> dict[str, Any]:
        """A line of ``kind`` already seen, or the next one: for lines whose order
        among each other the server does not promise."""
        for line in self.seen:
            if line["type"] == kind and all(line.get(k) == v for k, v in fields.items()):
                return line
        return self.next(kind, timeout, **fields)

    def next(self, kind: str, timeout: float = 30, **fields: Any) -> dict[str, Any]:
        """The next line of ``kind`` whose ``fields`` are as given (lines before it are
        kept in ``seen``)."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(
                    f"no {kind} line {fields} in {timeout} s: {self.seen}"
                ) from None
            if line is None:
                raise AssertionError(f"the stream ended before a {kind} line: {self.seen}")
            self.seen.append(line)
            if line["type"] == kind and all(line.get(k) == v for k, v in fields.items()):
                return line

    def close(self) -> None:
        """Hang up (the server sees the client leave); the reading thread, a daemon,
        ends with its socket."""
        if self._response is not None:
            self._response.close()
        self.http.close()
