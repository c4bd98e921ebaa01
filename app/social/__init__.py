"""Company at the table: ``chat`` (room chat, quick reactions, the host's switch for
spectators' lines) and ``public_rooms`` (the lobby's list of rooms to join or watch)."""
