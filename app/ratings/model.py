"""The rating model: Weng-Lin's Bayesian approximation with the Plackett-Luce model
(openskill), one rating per player count, updated by a match's final standing.

Pure: no I/O.  Why Plackett-Luce: a Krypkasino match is a free-for-all of 2 to 6
players ranked by their totals (R6.4: the lowest total wins, ties share), and
Plackett-Luce rates a full ranking of any number of sides at once, ties included.
Why per player count: a 2-player match (one opponent, 26 cards each) and a 6-player
one are different games; a rating earned in one says little of the other.

A player who left (a stand-in bot played their seat to the match's end: they were
away past the grace period and never came back) finishes last, behind everyone who
stayed whatever the points (tied with the others who left).  Bots are rated too, at
fixed published ratings (``BOT_ANCHORS``): they take part in every update as the
anchors of the scale, and are never updated themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MIN_PLAYERS, MAX_PLAYERS = 2, 6
"""The player counts rated apart (R1.3)."""

_MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (each update first
widens sigma by tau, so a rating never freezes)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: the estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating the leaderboard ranks by: mu - 3 sigma (about 99.7%
        sure the player is at least this good), so one lucky match ranks nobody first."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """Still settling (issue 47): shown with a "?" mark, as lichess marks a rating
        whose deviation is still high, until ``sigma`` is at most ``PROVISIONAL_SIGMA``."""
        return self.sigma > PROVISIONAL_SIGMA


PROVISIONAL_SIGMA = 6.0
"""A rating is provisional while its sigma is above this (a new one: 25/3, about 8.3).
Against one bot this takes about five rated matches (sigma 8.3 -> 6.2), fewer with more
players at the table (each match tells more).  The number people are shown is ``mu``,
the estimate (never negative for a new player: 25, a greedy bot's level), marked "?"
while provisional; the leaderboard still ranks by the cautious ``ordinal``."""

NEW = Skill(_MODEL.mu, _MODEL.sigma)
"""The rating of an account before its first rated match at a player count."""

BOT_ANCHORS: dict[str, Skill] = {
    "random": Skill(15.0, 2.0),
    "greedy": Skill(25.0, 2.0),
    "strong": Skill(31.0, 2.0),
}
"""The bot levels' fixed, published ratings (docs/ratings.md), the same at every player
count.  Set by hand from the tournaments of docs/bots.md: greedy plays about as a new
player is assumed to (the model's default mu 25), random far below it (greedy scores
11 to 29 points a deal fewer), strong above (2 to 28 points a deal below greedy).
The small sigma says they are known, so rating against a bot moves the person, not
the scale."""


@dataclass(frozen=True, slots=True)
class Finisher:
    """One seat of a finished match as the rating sees it."""

    total: int
    """The seat's match total (R6.2, summed over the deals: lower is better)."""
    left: bool = False
    """A stand-in bot played this seat to the end: its player left and finishes last."""


def standing(finishers: Sequence[Finisher]) -> list[int]:
    """Each seat's rank, 0 the best, ties sharing a rank: first everyone who stayed by
    total (R6.4: lowest wins; equal totals tie), then everyone who left, tied last."""
    stayed = sorted({f.total for f in finishers if not f.left})
    last = len(stayed)
    return [last if f.left else stayed.index(f.total) for f in finishers]


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Each seat's new rating after a match ranked ``ranks`` (0 best, ties equal).
    The caller keeps the old rating for a seat that must not move (a bot's anchor)."""
    if not MIN_PLAYERS <= len(skills) <= MAX_PLAYERS or len(ranks) != len(skills):
        raise ValueError("a rated match has 2 to 6 seats, one rank each")
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
