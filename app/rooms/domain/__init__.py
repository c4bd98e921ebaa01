"""A room's domain: pure, no I/O, no asyncio; given the events, all of it follows.

- ``events``: one frozen dataclass per kind of event, ``RoomEvent``, ``move_by``;
- ``event_codec``: an event to and from its stored row (the one parser of rows);
- ``options``: a room's settings and its seats;
- ``room_views``, ``state``: the views a room's connections get, and the state
  machine over the events (``RoomState.apply``);
- ``specs``: events to write before they have a seq, and what a room needs next;
- ``record_types``, ``records``, ``replay``: finished deals, their public records and
  every position replayed;
- ``commands``, ``results``: what may be asked of a room (one frozen dataclass per
  command) and what commands and reads answer;
- ``errors``, ``tokens``, ``played_ids``: refusals, token hashes, the ids of plays made.
"""
