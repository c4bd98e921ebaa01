"""Players beyond one socket: ``players`` (a browser's player key and its rooms for "My
games", and moving a seat to another device with a one-time transfer)."""
