"""Fan-out of one room's views to its WebSocket connections.

Connections are grouped by audience: a seat, or the spectators.  A view is
a public part, the same for everyone in the room, plus a small private part
(the seat's hand and legal moves).  After every event the hub diffs the
public part once (RFC 6902), serializes those operations once, and adds each
tracked audience's private operations; the message is serialized once per
audience and queued on every connection of it.  The last patches of each
audience are held so that a client reconnecting with ``last_seq`` can be sent
what it missed instead of a whole snapshot.
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from .jsondiff import make_patch

SPECTATORS = -1
"""The audience key of spectators (seats are 0..n-1)."""
TRACK_SECONDS = 300.0
"""How long an audience's views are still computed after its last connection left."""


class Sink(Protocol):
    """Where a connection's outgoing messages go (a queue drained by its writer task)."""

    def send_text(self, text: str) -> None: ...

    def close(self, code: int) -> None: ...


ViewParts = Callable[[], dict[str, Any]]
PrivateView = Callable[[int | None], dict[str, Any]]


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


@dataclass(slots=True)
class Audience:
    private: dict[str, Any] | None = None
    """This audience's private part of the view at ``seq``."""
    seq: int = 0
    history: deque[tuple[int, str]] = field(default_factory=deque)
    """(seq, serialized patch message) for the latest patches."""
    sinks: set[Any] = field(default_factory=set)
    left_at: float | None = None


class Hub:
    def __init__(self, history: int = 256) -> None:
        self.audiences: dict[int, Audience] = {}
        self.history = history
        self.public: dict[str, Any] | None = None
        self.public_seq = -1

    @staticmethod
    def key(seat: int | None) -> int:
        return SPECTATORS if seat is None else seat

    def connected_seats(self, players: int) -> list[bool]:
        return [n > 0 for n in self.seat_counts(players)]

    def seat_counts(self, players: int) -> list[int]:
        """Connections per seat held by this process."""
        return [len(self.audiences[i].sinks) if i in self.audiences else 0
                for i in range(players)]

    def connection_count(self) -> int:
        return sum(len(a.sinks) for a in self.audiences.values())

    def _ensure_public(self, seq: int, public_of: ViewParts) -> dict[str, Any]:
        if self.public is None or self.public_seq != seq:
            self.public, self.public_seq = public_of(), seq
        return self.public

    def attach(self, seat: int | None, sink: Any, public_of: ViewParts, private_of: PrivateView,
               seq: int, last_seq: int | None) -> list[str]:
        """Register a connection; return the messages that bring it up to date."""
        aud = self.audiences.setdefault(self.key(seat), Audience())
        aud.sinks.add(sink)
        aud.left_at = None
        public = self._ensure_public(seq, public_of)
        if aud.private is None or aud.seq != seq:
            aud.private = private_of(seat)
            aud.seq = seq
            aud.history.clear()
        if last_seq is not None and last_seq == seq:
            return []
        if last_seq is not None and aud.history and last_seq < seq:
            held = [msg for s, msg in aud.history if s > last_seq]
            if held and aud.history[0][0] <= last_seq + 1 and len(held) == seq - last_seq:
                return held
        view = dict(public)
        view.update(aud.private)
        return [_dumps({"type": "snapshot", "seq": seq, "view": view})]

    def detach(self, seat: int | None, sink: Any) -> bool:
        """Forget a connection; True when its seat has no connection left."""
        aud = self.audiences.get(self.key(seat))
        if aud is None:
            return True
        aud.sinks.discard(sink)
        if not aud.sinks:
            aud.left_at = time.monotonic()
            return True
        return False

    def prepare(self, seq: int, public_of: ViewParts, private_of: PrivateView
                ) -> list[tuple[int, str]]:
        """The room advanced to ``seq``: diff the views of every tracked audience.

        Returns (audience, message) pairs to ``flush`` once the change is
        committed; nothing is sent before that.  Call once per seq, in order.
        """
        now = time.monotonic()
        new_public = public_of()
        old_public, old_seq = self.public, self.public_seq
        self.public, self.public_seq = new_public, seq
        continuous = old_public is not None and old_seq == seq - 1
        public_ops = _dumps(make_patch(old_public, new_public))[1:-1] if continuous else ""
        out: list[tuple[int, str]] = []
        for key in list(self.audiences):
            aud = self.audiences[key]
            if not aud.sinks and (aud.left_at is None or now - aud.left_at > TRACK_SECONDS):
                del self.audiences[key]
                continue
            seat = None if key == SPECTATORS else key
            private = private_of(seat)
            if not continuous or aud.private is None or aud.seq != seq - 1:
                aud.history.clear()
                view = dict(new_public)
                view.update(private)
                msg = _dumps({"type": "snapshot", "seq": seq, "view": view})
            else:
                own = _dumps(make_patch(aud.private, private))[1:-1]
                ops = public_ops + "," + own if public_ops and own else public_ops or own
                msg = '{"type":"patch","seq":%d,"ops":[%s]}' % (seq, ops)
                aud.history.append((seq, msg))
                while len(aud.history) > self.history:
                    aud.history.popleft()
            aud.private, aud.seq = private, seq
            out.append((key, msg))
        return out

    def flush(self, pending: list[tuple[int, str]]) -> None:
        for key, msg in pending:
            aud = self.audiences.get(key)
            if aud is not None:
                for sink in list(aud.sinks):
                    sink.send_text(msg)

    def invalidate(self) -> None:
        """Prepared views were not committed: forget them, so clients get snapshots."""
        self.public, self.public_seq = None, -1
        for aud in self.audiences.values():
            aud.private = None
            aud.history.clear()

    def broadcast(self, text: str) -> None:
        """A message for every connection (presence, shutdown notice)."""
        for aud in self.audiences.values():
            for sink in list(aud.sinks):
                sink.send_text(text)

    def sinks(self) -> list[Any]:
        return [s for a in self.audiences.values() for s in a.sinks]
