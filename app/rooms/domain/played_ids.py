"""The ids of a room's committed plays, for exactly-once plays in bounded memory.

A client resends a play whose answer it missed (a dropped connection, a reload);
the server must answer the resend with the first play's seq instead of playing
the card twice.  So every committed id must stay recognisable for the room's
life, but a room that plays for hours must not hold one dict entry (a key string
and an int, about 100 bytes) per play it ever made: at 250 rooms that grew the
process by about 1.5 MB a minute.

Resends come within seconds, so the most recent ids (at least ``RECENT``) are
kept with their seqs, and answered from memory.  Older ids are kept only as their
64-bit hashes in sorted arrays (8 bytes a play); a play whose id hashes to one of
them is a resend of an old play, or (about one chance in 2**64 per id) a
collision, and either way the database, which stores every play's id under a
unique index, says which play it was (``RoomStore.play_seq``).  The arrays are
merged like a binary counter (a run is merged into the one before it once that
one is no more than twice as long), so a play costs O(log n) to fold in and a
lookup searches O(log n) runs.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

RECENT = 128
"""Ids answered from memory: the newest ``RECENT`` to ``2 * RECENT`` plays."""


class PlayedIds:
    """Committed play ids of one room: recent ones with their seqs, older ones hashed.

    Hashes use Python's ``hash`` of the id, which differs between processes: the
    array is only ever built in memory, from the room's events."""

    __slots__ = ("_young", "_old", "_runs")

    def __init__(self) -> None:
        self._young: dict[str, int] = {}
        self._old: dict[str, int] = {}
        self._runs: list[array[int]] = []
        """Sorted runs of the hashes of every id no longer in ``_young`` or ``_old``,
        longest first."""

    def add(self, key: str, seq: int) -> None:
        """Remember a committed play's id."""
        if len(self._young) >= RECENT:
            self._fold(self._old)
            self._old = self._young
            self._young = {}
        self._young[key] = seq

    def recent_seq(self, key: str) -> int | None:
        """The seq of a recent play with this id (None: not among the recent ones)."""
        seq = self._young.get(key)
        return seq if seq is not None else self._old.get(key)

    def maybe_older(self, key: str) -> bool:
        """Whether an older play may have had this id: ask the database for its seq."""
        h = hash(key)
        for run in self._runs:
            i = bisect_left(run, h)
            if i < len(run) and run[i] == h:
                return True
        return False

    def __len__(self) -> int:
        return len(self._young) + len(self._old) + sum(map(len, self._runs))

    def _fold(self, ids: dict[str, int]) -> None:
        if not ids:
            return
        runs = self._runs
        runs.append(array("q", sorted(map(hash, ids))))
        while len(runs) > 1 and len(runs[-2]) <= 2 * len(runs[-1]):
            last = runs.pop()
            runs[-1] = array("q", sorted([*runs[-1], *last]))
