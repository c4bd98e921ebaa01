"""Company at the table: room chat, quick reactions, and the lobby's public rooms."""
