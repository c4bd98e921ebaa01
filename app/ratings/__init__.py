"""Ratings (issue 34): ``model`` (a Weng-Lin / Plackett-Luce rating per player count,
the bots' fixed anchors, a finished match's standing), ``rated_rooms`` (who may sit in
a rated room), ``ratings`` (rating each rated match exactly once, the catch-up, the
leaderboard) and ``profiles`` (an account's figures from its finished deals).  Storage
is declared here as Protocols and written in app/db (ratings.py, profiles.py)."""
