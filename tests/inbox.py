"""A connection's outgoing side, as the WebSocket endpoint gives the hub one: for
tests that drive the room service (or a feature) without a socket."""

from __future__ import annotations

import json
from typing import Any


class Inbox:
    """Keeps every message it is sent, parsed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int) -> None:
        pass
