"""A match: deal after deal over the dealer rotation, cumulative totals, winners.

R6.4: by default n deals for n players (one full rotation); V8 allows a fixed
number of deals or a points limit.  The lowest cumulative total wins and ties
share the win; under V1 partners' totals are added and a team wins.  V10
breaks a tie on the lowest total with one more deal by the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .rules import RuleSet
from .scoring import team_totals
from .view_types import MatchStanding


@dataclass(slots=True)
class Match:
    rules: RuleSet
    players: int
    first_dealer: int
    deal_totals: list[list[int]] = field(default_factory=list)
    """Per finished deal, each seat's deal total (grows only by ``record_deal``)."""
    _standing: MatchStanding | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.rules.validate_for(self.players)
        if not 0 <= self.first_dealer < self.players:
            raise ValueError("first_dealer must be a seat")

    @property
    def deals_total(self) -> int | None:
        """Number of deals the match lasts; None when it runs to a points limit.

        Once V10 has called a tie-break deal, that deal is counted too.
        """
        regular = self._regular_end()
        if regular is not None and self._tie_break_after(regular):
            return regular + 1
        if self.rules.match_limit is not None:
            return None
        if self.rules.match_deals is not None:
            return self.rules.match_deals
        return self.players

    @property
    def tie_break(self) -> bool:
        """V10: the match went, or is going, into a tie-break deal."""
        regular = self._regular_end()
        return regular is not None and self._tie_break_after(regular)

    def _regular_end(self) -> int | None:
        """After how many deals the match ended by R6.4 / V8 (None: not yet)."""
        limit = self.rules.match_limit
        if limit is None:
            wanted = self.rules.match_deals or self.players
            return wanted if self.deals_played >= wanted else None
        totals = [0] * self.players
        for n, deal in enumerate(self.deal_totals, start=1):
            for seat, t in enumerate(deal):
                totals[seat] += t
            standing = team_totals(totals, self.rules.partnership) or totals
            if max(standing) >= limit:
                return n
        return None

    def _tie_break_after(self, deals: int) -> bool:
        """V10: two or more sides share the lowest total after ``deals`` deals."""
        if not self.rules.tie_break_deal:
            return False
        totals = [0] * self.players
        for deal in self.deal_totals[:deals]:
            for seat, t in enumerate(deal):
                totals[seat] += t
        standing = team_totals(totals, self.rules.partnership) or totals
        return standing.count(min(standing)) > 1

    @property
    def deals_played(self) -> int:
        return len(self.deal_totals)

    @property
    def next_deal_no(self) -> int:
        """1-based number of the deal to play next (or being played)."""
        return self.deals_played + 1

    def dealer_for(self, deal_no: int) -> int:
        """R2.1: the deal passes to the left (dealer + 1) for each new deal."""
        return (self.first_dealer + deal_no - 1) % self.players

    @property
    def cumulative(self) -> list[int]:
        totals = [0] * self.players
        for deal in self.deal_totals:
            for seat, t in enumerate(deal):
                totals[seat] += t
        return totals

    @property
    def team_cumulative(self) -> list[int] | None:
        return team_totals(self.cumulative, self.rules.partnership)

    def record_deal(self, totals: list[int]) -> None:
        if self.is_over:
            raise ValueError("the match is over")
        if len(totals) != self.players:
            raise ValueError("one total per seat")
        self.deal_totals.append(list(totals))
        self._standing = None

    def standing(self) -> MatchStanding:
        """The match's part of the public view.  It changes only when a deal is
        recorded, so the same dict (and lists) come back until then: a server
        builds the view after every move, and its diff passes over the same objects
        with one identity check."""
        if self._standing is None:
            fresh: MatchStanding = {
                "deals_total": self.deals_total,
                "match_limit": self.rules.match_limit,
                "cumulative": self.cumulative,
                "team_cumulative": self.team_cumulative,
                "deal_totals": [list(t) for t in self.deal_totals],
                "winners": self.winners(),
                "rules": self.rules.to_dict(),
            }
            self._standing = fresh
        return self._standing

    @property
    def is_over(self) -> bool:
        """R6.4 / V8, and after a V10 tie-break deal; a tie that remains is shared."""
        regular = self._regular_end()
        if regular is None:
            return False
        if self._tie_break_after(regular):
            return self.deals_played > regular
        return True

    def winners(self) -> list[int]:
        """Seats that share the lowest total (a whole team under V1); [] until over."""
        if not self.is_over:
            return []
        teams = self.team_cumulative
        if teams is not None:
            best = min(teams)
            return [s for s in range(self.players) if teams[self.rules.team_of(s)] == best]
        cum = self.cumulative
        best = min(cum)
        return [s for s, t in enumerate(cum) if t == best]
