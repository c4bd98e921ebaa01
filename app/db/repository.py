"""The room repository: the only code that speaks SQL for the room service.

``RoomRepository`` implements the ``RoomStore`` protocol of ``app/rooms/store.py``
on SQLite or PostgreSQL.  It is put together from parts with one job each, so that
none grows past what one reads at once:

- ``store_base``: the session factory, SQLite's writer thread, ``_run_write``, ``ping``;
- ``room_writes``: making a room and committing its events (the version check);
- ``room_reads``: replaying a room from its events and following its seq;
- ``room_lookup``: rooms by code, live-room counts, idle waiting rooms;
- ``deal_records``: the stored record of a finished deal;
- ``leases``: which process runs a room's timers;
- ``deadline_claims``: correspondence rooms' deadlines, claimed once (issue 32);
- ``outage``: which driver errors mean the database is away (``Unavailable``).

Importers keep importing from here: ``Conflict``, ``Unavailable``, ``Written`` and
``outages_as_unavailable`` are re-exported.
"""

from __future__ import annotations

from app.core.errors import Conflict, Unavailable
from app.rooms.store import Written

from .deadline_claims import DeadlineClaims
from .deal_records import DealRecords
from .leases import LeaseRows
from .outage import outages_as_unavailable
from .outbox import OutboxRows
from .room_lookup import RoomLookup
from .room_reads import RoomReads
from .room_writes import RoomWrites

__all__ = ["Conflict", "RoomRepository", "Unavailable", "Written", "outages_as_unavailable"]


class RoomRepository(
    RoomWrites, RoomReads, RoomLookup, DealRecords, LeaseRows, DeadlineClaims, OutboxRows
):
    """The ``RoomStore`` on a database: ``RoomRepository(sessions, writer)``, where
    ``writer`` is SQLite's writer thread (None on PostgreSQL)."""
