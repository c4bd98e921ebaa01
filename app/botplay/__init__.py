"""Outside bots at play (issue 51): the bot event stream (``GET /api/bot/stream``: the
games a bot is seated in and the challenges addressed to it, one JSON object a line),
a room's players seating an online bot by name, and challenges between bots.

The stream's rows say which bots are online in every process (``bot_streams``), and
new games and challenges are read from the database, so a bot's stream on one
process hears of a seat taken through another.  docs/protocol.md, "Bot event stream,
seating bots, challenges", is the wire's side.
"""
