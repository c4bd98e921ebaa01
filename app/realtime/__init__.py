"""Real-time delivery: the per-room hub and its audiences, JSON diffs, a socket's
outgoing side, and WebSocket compression and framing.  No game logic: what is sent
is decided by the rooms and the features; this package gets it to the sockets."""
