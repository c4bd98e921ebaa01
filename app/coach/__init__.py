"""The coach (issue 31): every play of a finished deal rated from its player's own
information, stored once and served to the replay viewer.

``rating.py`` rates one play (pure), ``report.py`` assembles a deal's analysis,
``reason.py`` says why a play lost points (issue 47),
``labels.py`` holds the published thresholds, ``worlds.py`` is the one place that
reaches into the bots' search; ``service.py`` and ``runner.py`` queue, compute and
store analyses in the background (the stores are declared in ``store.py``).
``whatif.py`` values a review's what-ifs by the same method, and ``player.py`` plays
the coach's best move (the benchmark against the strong bot, bench/search.py).
"""
