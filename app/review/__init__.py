"""Games that stay: ``archive`` (a room's finished matches and deals, their records and
replayed positions) and ``review`` (reviewing a finished deal together, everyone
following its driver, across processes)."""
