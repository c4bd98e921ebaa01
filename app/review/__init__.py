"""Games that stay: a room's archive of finished matches and deals (replayed by the
engine), and reviewing a finished deal together."""
