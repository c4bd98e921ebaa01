"""Fan-out of one room's views to its WebSocket connections.

Connections are grouped by audience: a seat, or the spectators.  A view is
a public part, the same for everyone in the room, plus a small private part
(the seat's hand and legal moves).  After every event the hub diffs the
public part once (RFC 6902), serializes those operations once, and adds each
tracked audience's private operations; the message is serialized once per
audience.  The last patches of each audience are held so that a client
reconnecting with ``last_seq`` can be sent what it missed instead of a whole
snapshot.

Every connection has its own "last seq sent".  A process learns of a newer
seq in several ways (its own write, a write it lost to another process, the
broker, a catch-up after Redis or the database came back, a reload); whichever
way it came, ``sync`` brings each connection from where *it* is to the room's
seq, with the held patches when they cover the gap and a snapshot otherwise.
So no path can leave a connection behind, and none sends a seq twice.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.wire import encode_ops, is_snapshot, patch_prefix, patch_text, snapshot_message

from .jsondiff import make_patch

SPECTATORS = -1
"""The audience key of spectators (seats are 0..n-1)."""
TRACK_SECONDS = 300.0
"""How long an audience's views are still computed after its last connection left."""
NOTHING_SENT = -1
"""The "last seq sent" of a connection that has no view yet."""


class Sink(Protocol):
    """Where a connection's outgoing messages go (a queue drained by its writer task)."""

    def send_text(self, text: str) -> None: ...

    def close(self, code: int) -> None: ...


ViewPart = Mapping[str, Any]
"""A part of a view as JSON: the hub sends and diffs it, whatever its keys."""
ViewParts = Callable[[], ViewPart]
PrivateView = Callable[[int | None], ViewPart]
Pending = list[tuple[int, int, str]]
"""(audience, seq, message) prepared for a change, sent once it is committed."""


@dataclass(slots=True)
class Audience:
    private: ViewPart | None = None
    """This audience's private part of the view at ``seq``."""
    seq: int = 0
    history: deque[str] = field(default_factory=deque)
    """The serialized patch messages of the latest seqs, consecutive and ending at
    ``seq`` (so the first is ``seq - len(history) + 1``).  Plain strings, not
    (seq, message) pairs: the cyclic garbage collector never tracks a string, and
    a tuple per patch made these histories the largest group of objects every
    young collection had to walk (5 audiences x 64 patches per room)."""
    sinks: dict[Any, int] = field(default_factory=dict)
    """Each connection of this audience -> the last seq it was sent."""
    left_at: float | None = None


class Hub:
    def __init__(self, history: int = 64) -> None:
        self.audiences: dict[int, Audience] = {}
        self.history = history
        self.public: ViewPart | None = None
        self.public_seq = -1

    @staticmethod
    def key(seat: int | None) -> int:
        return SPECTATORS if seat is None else seat

    def connected_seats(self, players: int) -> list[bool]:
        return [n > 0 for n in self.seat_counts(players)]

    def seat_counts(self, players: int) -> list[int]:
        """Connections per seat held by this process."""
        return [len(self.audiences[i].sinks) if i in self.audiences else 0 for i in range(players)]

    def presence_counts(self, players: int) -> list[int]:
        """Connections per seat, then the number of spectators (what a process reports
        to the others)."""
        return self.seat_counts(players) + [self.spectator_count()]

    def connection_count(self) -> int:
        return sum(len(a.sinks) for a in self.audiences.values())

    def spectator_count(self) -> int:
        aud = self.audiences.get(SPECTATORS)
        return len(aud.sinks) if aud is not None else 0

    # ------------------------------------------------------------ connections

    def attach(
        self,
        seat: int | None,
        sink: Any,
        public_of: ViewParts,
        private_of: PrivateView,
        seq: int,
        last_seq: int | None,
    ) -> None:
        """Register a connection and send it what brings it to ``seq``.

        ``last_seq`` is the seq of the view the client already holds: it gets
        the patches after it when they are held, nothing when it is current,
        and a snapshot otherwise.  Messages go straight to the sink, so nothing
        another coroutine sends later can overtake them.
        """
        key = self.key(seat)
        aud = self.audiences.setdefault(key, Audience())
        known = last_seq if last_seq is not None and 0 <= last_seq <= seq else NOTHING_SENT
        aud.sinks[sink] = known
        aud.left_at = None
        self._bring_up(key, aud, sink, seq, public_of, private_of)

    def detach(self, seat: int | None, sink: Any) -> bool:
        """Forget a connection; True when its seat has no connection left."""
        aud = self.audiences.get(self.key(seat))
        if aud is None:
            return True
        aud.sinks.pop(sink, None)
        if not aud.sinks:
            aud.left_at = time.monotonic()
            return True
        return False

    # ---------------------------------------------------------------- changes

    def prepare(self, seq: int, public_of: ViewParts, private_of: PrivateView) -> Pending:
        """The room advanced to ``seq``: diff the views of every tracked audience.

        Returns the messages to ``flush`` once the change is committed; nothing
        is sent before that.  Call once per seq, in order.
        """
        now = time.monotonic()
        new_public = public_of()
        old_public, old_seq = self.public, self.public_seq
        self.public, self.public_seq = new_public, seq
        continuous = old_public is not None and old_seq == seq - 1
        public_ops = encode_ops(make_patch(old_public, new_public)) if continuous else ""
        prefix = patch_prefix(seq, public_ops)  # one string shared by every audience's patch
        out: Pending = []
        bare: str | None = None  # the patch of every audience whose own part did not change
        bare_kept = ""  # its plain copy, one for every history that keeps it
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
                msg = snapshot_message(seq, view)
            else:
                # the very part of the last seq (state.private_view reuses it): no diff
                own = "" if private is aud.private else encode_ops(make_patch(aud.private, private))
                # The history keeps a plain copy: the message sent carries its frames,
                # which only this change's flush needs.
                if own:
                    msg = patch_text(prefix, own)
                    aud.history.append(str(msg))
                else:
                    if bare is None:
                        bare = patch_text(prefix, "")
                        bare_kept = str(bare)
                    msg = bare
                    aud.history.append(bare_kept)
                while len(aud.history) > self.history:
                    aud.history.popleft()
            aud.private, aud.seq = private, seq
            out.append((key, seq, msg))
        return out

    def flush(self, pending: Pending, public_of: ViewParts, private_of: PrivateView) -> None:
        """Send committed changes: each connection gets the messages that follow on from
        its own last seq; one that is behind for any reason is brought up by ``sync``."""
        last = -1
        for key, seq, msg in pending:
            last = max(last, seq)
            aud = self.audiences.get(key)
            if aud is None:
                continue
            snapshot = is_snapshot(msg)
            for sink, sent in aud.sinks.items():
                if sent == seq - 1 or (snapshot and sent < seq):
                    sink.send_text(msg)
                    aud.sinks[sink] = seq
        if last >= 0:
            self.sync(last, public_of, private_of)

    def sync(self, seq: int, public_of: ViewParts, private_of: PrivateView) -> int:
        """Bring every connection to ``seq`` (the room's current seq); returns how many
        needed it.  Cheap when all are current: one comparison per connection."""
        behind = 0
        for key, aud in self.audiences.items():
            for sink, sent in list(aud.sinks.items()):
                if sent != seq:
                    behind += 1
                    self._bring_up(key, aud, sink, seq, public_of, private_of)
        return behind

    def invalidate(self) -> None:
        """The views computed so far may not match the stored room (a write failed, or
        the room was reloaded): forget them, so lagging connections get snapshots."""
        self.public, self.public_seq = None, -1
        for aud in self.audiences.values():
            aud.private = None
            aud.history.clear()

    def reset(self, seq: int, public_of: ViewParts, private_of: PrivateView) -> None:
        """The room was reloaded at ``seq``: compute every tracked audience's view from
        the reloaded state.  Views are a function of the stored events, so connections
        already at ``seq`` hold exactly these and go on with patches."""
        self.invalidate()
        self.public, self.public_seq = public_of(), seq
        for key, aud in self.audiences.items():
            aud.private = private_of(None if key == SPECTATORS else key)
            aud.seq = seq

    def sinks(self) -> list[Any]:
        """Every connection of the room (to tell them all something and close them)."""
        return [sink for aud in self.audiences.values() for sink in aud.sinks]

    def broadcast(self, text: str) -> None:
        """A message for every connection (presence, shutdown notice)."""
        for aud in self.audiences.values():
            for sink in list(aud.sinks):
                sink.send_text(text)

    # -------------------------------------------------------------- internals

    def _bring_up(
        self,
        key: int,
        aud: Audience,
        sink: Any,
        seq: int,
        public_of: ViewParts,
        private_of: PrivateView,
    ) -> None:
        sent = aud.sinks[sink]
        if sent == seq:
            return
        if self.public is None or self.public_seq != seq:
            self.public, self.public_seq = public_of(), seq
        if aud.private is None or aud.seq != seq:
            aud.private = private_of(None if key == SPECTATORS else key)
            aud.seq = seq
            aud.history.clear()
        missing = seq - sent  # the history ends at aud.seq, which is seq here
        if 0 <= sent < seq and missing <= len(aud.history):
            for msg in list(aud.history)[-missing:]:
                sink.send_text(msg)
            aud.sinks[sink] = seq
            return
        view = dict(self.public)
        view.update(aud.private)
        sink.send_text(snapshot_message(seq, view))
        aud.sinks[sink] = seq
