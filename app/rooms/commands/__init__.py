"""One handler per command that changes a room: play, seats (create, join), rematch,
autoplay, close, continue.  Each is given the unit of work and the write path, says
which events the command writes (or refuses it, changing nothing), and leaves the
commit, the fan-out and the timers to the write path."""
