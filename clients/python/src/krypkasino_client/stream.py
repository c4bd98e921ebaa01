"""The bot event stream, ``GET /api/bot/stream`` (docs/protocol.md, "Bot event
stream, seating bots, challenges"): one JSON object a line, read with the standard
library.

``EventStream.events()`` yields each event (``game``, ``challenge``,
``challenge_gone``) as a dict and never ends by itself: a dropped stream, one quiet
for longer than its keep-alive allows, or a server going down is opened again (with
backoff), and the server tells a new stream every live game and open challenge
again, so nothing is missed; the caller drops what it has seen.  A refusal no retry
mends (an unknown or revoked token, a token without ``bot:play``, a person's
account) raises ``ApiError``.  ``aevents()`` is the same for asyncio, the reading
done on a thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator

from .http import ApiError, _refusal
from .jsontypes import JsonMap, obj
from .version import __version__

__all__ = ["EventStream"]

log = logging.getLogger("krypkasino_client")

QUIET_S = 45.0
"""The server sends an empty line every 15 s: this long without any, the stream is dead."""
FATAL = frozenset({401, 403})
MAX_BACKOFF = 10.0


class EventStream:
    def __init__(self, server: str, access_token: str) -> None:
        self.url = server.rstrip("/") + "/api/bot/stream"
        self.access_token = access_token
        self.opened = 0
        """Streams opened so far (the first, and each reconnection)."""
        self._stopped = threading.Event()

    def stop(self) -> None:
        """Stop at the next line or keep-alive (at most QUIET_S later)."""
        self._stopped.set()

    def events(self) -> Iterator[JsonMap]:
        failures = 0
        while not self._stopped.is_set():
            try:
                for event in self._one_stream():
                    failures = 0
                    yield event
                    if self._stopped.is_set():
                        return
                log.info("the event stream ended; opening it again")
            except ApiError as exc:
                if exc.status in FATAL or exc.status == 0 and failures > 30:
                    raise
                log.info("event stream refused (%s); trying again", exc)
                if exc.retry_after:
                    time.sleep(exc.retry_after)
            except (OSError, ValueError) as exc:
                log.info("event stream lost (%s); opening it again", exc)
            failures += 1
            self._stopped.wait(min(MAX_BACKOFF, 0.2 * 2**failures))

    def _one_stream(self) -> Iterator[JsonMap]:
        headers = {
            "Authorization": f"Bearer {self.access_token}",
            "Accept": "application/x-ndjson",
            "User-Agent": f"krypkasino-client/{__version__}",
        }
        request = urllib.request.Request(self.url, headers=headers)
        try:
            answer = urllib.request.urlopen(request, timeout=QUIET_S)
        except urllib.error.HTTPError as exc:
            raise _refusal(exc) from None
        except urllib.error.URLError as exc:
            raise ApiError(0, "unreachable", f"{self.url}: {exc}") from exc
        self.opened += 1
        with answer:
            for raw in answer:
                line = raw.strip()
                if line:  # an empty line keeps the stream alive
                    yield obj(json.loads(line), "an event")
                if self._stopped.is_set():
                    return

    async def aevents(self) -> AsyncIterator[JsonMap]:
        """``events()`` for asyncio: read on a thread, handed over one by one."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[JsonMap | BaseException | None] = asyncio.Queue()

        def read() -> None:
            try:
                for event in self.events():
                    loop.call_soon_threadsafe(queue.put_nowait, event)
                loop.call_soon_threadsafe(queue.put_nowait, None)
            except BaseException as exc:  # noqa: BLE001 - handed to the reader, raised there
                loop.call_soon_threadsafe(queue.put_nowait, exc)

        threading.Thread(target=read, name="krypkasino-events", daemon=True).start()
        try:
            while (item := await queue.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            self.stop()
