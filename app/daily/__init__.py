"""The deal of the day and "Play this deal yourself" (issue 32).

Each UTC day has one seed per player count, fixed once for every process (the
first request of the day inserts it, under a unique key) and published at once
as its SHA-256 commitment; the seed itself is published once the day is over.
A player (by player key) plays each day's deal once, alone against strong bots
whose every choice is seeded from the day's seed and the position, so everyone
who plays the same cards meets the same answers.  ``seeds.py`` derives the pack,
the dealer and the bots' seed from the day's seed; ``ranking.py`` ranks the
results; ``service.py`` is the feature; ``solo.py`` starts a solo room on any
finished deal's pack.  docs/daily.md describes it for players.
"""
