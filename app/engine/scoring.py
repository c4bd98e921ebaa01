"""Deal scores (R6.2): card points and sweep transfers kept apart."""

from __future__ import annotations

from dataclasses import dataclass

from .view_types import ScoreJson

SWEEP = 5
DOUBLE_SWEEP = 10
BORDSTABBE = -5


@dataclass(slots=True)
class Score:
    """One seat's running deal score.  Lower is better (R6.4)."""

    card_points: int = 0
    sweeps: int = 0
    """Ordinary sweeps made (+5 each)."""
    double_sweeps: int = 0
    """Double sweeps made (+10 each); not also counted in ``sweeps``."""
    sweeps_conceded: int = 0
    double_sweeps_conceded: int = 0
    bordstabbe: int = 0
    """V5: -5 for the first player when the opening table is of one value."""

    @property
    def sweeps_made_points(self) -> int:
        """R6.2: +5 per sweep and +10 per double sweep made."""
        return SWEEP * self.sweeps + DOUBLE_SWEEP * self.double_sweeps

    @property
    def sweeps_conceded_points(self) -> int:
        """R6.2: -5 per sweep and -10 per double sweep conceded (zero or negative)."""
        return -(SWEEP * self.sweeps_conceded + DOUBLE_SWEEP * self.double_sweeps_conceded)

    @property
    def sweep_transfer(self) -> int:
        return self.sweeps_made_points + self.sweeps_conceded_points

    @property
    def total(self) -> int:
        return self.card_points + self.sweep_transfer + self.bordstabbe

    def to_dict(self, seat: int) -> ScoreJson:
        return {
            "seat": seat,
            "card_points": self.card_points,
            "sweeps": self.sweeps,
            "double_sweeps": self.double_sweeps,
            "sweeps_conceded": self.sweeps_conceded,
            "double_sweeps_conceded": self.double_sweeps_conceded,
            "bordstabbe": self.bordstabbe,
            "sweeps_made_points": self.sweeps_made_points,
            "sweeps_conceded_points": self.sweeps_conceded_points,
            "sweep_transfer": self.sweep_transfer,
            "total": self.total,
        }


def team_totals(totals: list[int], partnership: bool) -> list[int] | None:
    """V1: partners' totals added (seats 0+2, 1+3); None without partnership."""
    if not partnership:
        return None
    return [totals[0] + totals[2], totals[1] + totals[3]]
