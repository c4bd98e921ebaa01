"""The hub keeps a "last seq sent" per connection: whichever way the room's news
comes, each connection is brought from where it is to the room's seq, with the
held patches when they cover its gap and a snapshot otherwise, never twice."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch

from app.realtime.hub import Hub


class Inbox:
    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.kinds: list[str] = []

    def send_text(self, text: str) -> None:
        msg = json.loads(text)
        self.kinds.append(msg["type"])
        if msg["type"] == "snapshot":
            self.view, self.seq = msg["view"], msg["seq"]
        elif msg["type"] == "patch":
            assert msg["seq"] == self.seq + 1, f"gap {self.seq} -> {msg['seq']}"
            self.view = jsonpatch.apply_patch(self.view, msg["ops"])
            self.seq = msg["seq"]

    def close(self, code: int) -> None:
        pass


class Room:
    """A stand-in room whose views are a function of its seq."""

    def __init__(self) -> None:
        self.seq = 0

    def public(self) -> dict[str, Any]:
        return {"seq": self.seq, "table": list(range(self.seq % 5))}

    def private(self, seat: int | None) -> dict[str, Any]:
        return {"hand": [] if seat is None else [seat, self.seq]}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**self.public(), **self.private(seat)}


def advance(hub: Hub, room: Room, n: int = 1) -> None:
    pending = []
    for _ in range(n):
        room.seq += 1
        pending += hub.prepare(room.seq, room.public, room.private)
    hub.flush(pending, room.public, room.private)


def test_connections_follow_by_patches_after_a_snapshot() -> None:
    hub, room = Hub(), Room()
    a, b = Inbox(), Inbox()
    hub.attach(0, a, room.public, room.private, room.seq, None)
    hub.attach(None, b, room.public, room.private, room.seq, None)
    advance(hub, room, 3)
    assert (a.seq, a.view) == (3, room.view(0))
    assert (b.seq, b.view) == (3, room.view(None))
    assert a.kinds == ["snapshot", "patch", "patch", "patch"]


def test_a_connection_left_behind_is_brought_up_by_sync_and_nothing_is_sent_twice() -> None:
    hub, room = Hub(), Room()
    ahead, behind = Inbox(), Inbox()
    hub.attach(1, ahead, room.public, room.private, room.seq, None)
    hub.attach(1, behind, room.public, room.private, room.seq, None)
    # Another process advanced the room; this process reloaded it without sending.
    room.seq = 4
    hub.reset(room.seq, room.public, room.private)
    assert hub.sync(room.seq, room.public, room.private) == 2
    assert (behind.seq, behind.view) == (4, room.view(1))
    assert hub.sync(room.seq, room.public, room.private) == 0, "everyone is current"
    advance(hub, room)
    assert ahead.kinds[-1] == "patch" and (ahead.seq, ahead.view) == (5, room.view(1))


def test_a_reload_at_the_seq_a_connection_holds_keeps_it_on_patches() -> None:
    hub, room = Hub(), Room()
    c = Inbox()
    hub.attach(0, c, room.public, room.private, room.seq, None)
    advance(hub, room, 2)
    hub.invalidate()  # a failed write: the views computed for it are forgotten
    hub.reset(room.seq, room.public, room.private)  # reloaded at the seq c holds
    hub.sync(room.seq, room.public, room.private)
    advance(hub, room)
    assert c.kinds == ["snapshot", "patch", "patch", "patch"]
    assert (c.seq, c.view) == (3, room.view(0))


def test_reconnecting_with_last_seq_gets_the_held_patches() -> None:
    hub, room = Hub(), Room()
    first = Inbox()
    hub.attach(0, first, room.public, room.private, room.seq, None)
    advance(hub, room, 2)
    hub.detach(0, first)
    advance(hub, room, 3)
    again = Inbox()
    again.view, again.seq = first.view, first.seq
    hub.attach(0, again, room.public, room.private, room.seq, first.seq)
    assert again.kinds == ["patch"] * 3 and again.view == room.view(0)


def test_a_gap_the_history_does_not_cover_gets_a_snapshot() -> None:
    hub, room = Hub(history=2), Room()
    c = Inbox()
    hub.attach(0, c, room.public, room.private, room.seq, None)
    hub.detach(0, c)
    advance(hub, room, 5)
    hub.attach(0, c, room.public, room.private, room.seq, 0)
    assert c.kinds == ["snapshot", "snapshot"] and (c.seq, c.view) == (5, room.view(0))


def test_a_current_client_is_sent_nothing_on_attach() -> None:
    hub, room = Hub(), Room()
    c = Inbox()
    hub.attach(0, c, room.public, room.private, room.seq, None)
    advance(hub, room, 2)
    d = Inbox()
    hub.attach(0, d, room.public, room.private, room.seq, room.seq)
    assert d.kinds == []


def test_the_history_covers_exactly_its_length_and_no_further() -> None:
    hub, room = Hub(history=3), Room()
    watcher = Inbox()
    hub.attach(0, watcher, room.public, room.private, room.seq, None)
    advance(hub, room, 2)
    at_two = (dict(watcher.view or {}), watcher.seq)
    advance(hub, room, 3)  # the history now holds seqs 3, 4, 5
    covered = Inbox()
    covered.view, covered.seq = at_two
    hub.attach(0, covered, room.public, room.private, room.seq, 2)
    assert covered.kinds == ["patch"] * 3 and covered.view == room.view(0)
    one_short = Inbox()
    hub.attach(0, one_short, room.public, room.private, room.seq, 1)  # needs seq 2 too
    assert one_short.kinds == ["snapshot"] and (one_short.seq, one_short.view) == (5, room.view(0))


def test_the_history_holds_nothing_the_cyclic_collector_walks() -> None:
    """The held patches of every room stay in memory for minutes; every young
    collection walks the containers among them (docs/benchmarks.md, GC pauses)."""
    import gc

    hub, room = Hub(), Room()
    hub.attach(0, Inbox(), room.public, room.private, room.seq, None)
    advance(hub, room, 10)
    held = [entry for aud in hub.audiences.values() for entry in aud.history]
    assert len(held) == 10
    assert not any(gc.is_tracked(entry) for entry in held)
