"""One handler per command that changes a room: play, seats (create, join), rematch,
autoplay, close, continue, a deal shown, vacation, take-back and hint, the host's
options.  Each is ``async def handler(ctx, command) -> answer``: given the handlers'
``Context`` (the unit of work, the write path, sync) and its command (a frozen value of
app/rooms/domain/commands.py), it says which events the command writes (or refuses it,
changing nothing), and leaves the commit, the fan-out and the timers to the write path.
``table.py`` maps each command type to its handler."""
