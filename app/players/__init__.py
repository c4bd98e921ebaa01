"""Players beyond one socket: a browser's player key (its rooms, "My games") and
moving a seat to another device with a one-time transfer."""
