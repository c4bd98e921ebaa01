"""Rooms: the only place that changes a room.  Each module has one job, and imports
only the ones listed above it here (tests/test_architecture.py holds it):

- ``domain/``: the room as pure data and transitions (see its own list);
- ``store``, ``leases``, ``runtime``, ``settings``, ``stats``, ``botrunner``: the
  storage Protocol, timer leases, a room held in memory, settings, counters, where
  bots think;
- ``unit``: the unit of work every handler is given (and the ``Scheduler`` Protocol);
- ``registry``: rooms loaded into memory and dropped from it;
- ``writes``: validate, apply, commit, then fan out;
- ``sync``: catching up with other processes, presence, housekeeping;
- ``commands/``: one handler per command (play, seats, match, ready);
- ``attendance``, ``pacing``, ``automation``: the timers (the unit's scheduler);
- ``connections``: attaching and detaching a connection;
- ``memory``: a ``RoomStore`` in memory, with the SQL store's promises;
- ``service``: the face the API and the features see; nothing here imports it.
"""
