"""The bot ladder (issue 51): a standing pool of bot-only duplicate packs, published
with every deal and result so that anyone can recompute the standings.

Pure parts: ``entrants`` (who may play, and the seam for outside bots),
``schedule`` (which entrants play the next pack, and where each sits), ``play``
(a pack played by the engine, CPU only), ``records`` (a played deal as a scenario),
``standings`` (the published results made into standings with 95% intervals).
With I/O: ``runner`` (plays packs, once across processes, through the ``store``
Protocol that app/db/ladder.py implements), ``service`` (the reads the API serves,
cached), ``cli`` (``krypkasino ladder``).  docs/bots.md, "The bot ladder".
"""
