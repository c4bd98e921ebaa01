"""A room's domain: its state as a pure machine over typed events, the records and
replays of finished deals, refusals, and token hashing.  No I/O, no asyncio: given
the events, everything here is a function of them."""
