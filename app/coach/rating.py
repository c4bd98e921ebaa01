"""One play of a finished deal, rated from its player's information at that moment.

For the position before the play (its seat to move) the coach takes the
seat's information set, never the hidden cards, and estimates for each
candidate move the points the seat (its team under V1) ends the deal with:
the points it already has, plus the mean over sampled worlds of what it gains
from there when the move is played and the deal played on for ``rounds``
rounds of the table (to its end once few cards are left; a playout stopped
early is valued by ``outlook``).  Every candidate is played in the same worlds
with the same playout randomness (common random numbers), so the differences
between moves are not drowned in the luck of the deal.

The candidates are every legal move when there are at most ``max_candidates``,
else the greedy ranking's best that many, plus the move played.  After
``prune_after`` worlds a candidate that trails the leader by ``prune_z``
standard errors of the paired differences is dropped (the move played never
is), as the strong bot does.  ``samples`` worlds are drawn, and ``samples``
more at a time while the play's loss lies within ``refine_z`` standard errors
of a label threshold, up to ``max_samples``: the uncertain labels get the
worlds (docs/bots.md, "The coach", measures what this buys).

The **hindsight** column is the best move with every card known: each
candidate played out in the real deal (the true hands and stock), the mean of
``hindsight_runs`` playouts.  It is shown as such, never used for the label.

A play that lost points gets a **reason** (``reason.py``): where over the playouts
the difference against the best move came from (the sweeps, captures or end award
it led to, with their odds over the sampled worlds) and the likely continuation.

Deterministic for a given deal, play and seed: every random number comes from
``random.Random(f"{seed}:{index}")``.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.engine.deal import Deal
from app.engine.moves import POINTS, LegalMove

from . import worlds
from .labels import THRESHOLDS, Label, Thresholds, label
from .reason import Reason, Trace, explain, side_of, trace


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard the coach looks at each play (docs/bots.md, "The coach")."""

    samples: int = 48
    """Worlds sampled per play at first (each candidate is played out in every one)."""
    max_samples: int = 192
    """Worlds at most: while the loss lies within ``refine_z`` standard errors of a
    threshold (its label uncertain), ``samples`` more are drawn, up to this many."""
    refine_z: float = 1.5
    max_candidates: int = 6
    """Moves compared per play at most (the greedy ranking's best, plus the move played)."""
    prune_after: int = 8
    """Worlds before clearly worse candidates may be dropped (then every ``prune_every``)."""
    prune_every: int = 4
    prune_z: float = 3.0
    """A candidate trailing the leader by this many standard errors is dropped."""
    rounds: int = 2
    """Rounds of the table each playout lasts after the candidate move (0: to the end of
    the deal; so is it when at most ``END_ROUNDS`` rounds of cards are left); a playout
    stopped early is valued by ``outlook``."""
    hindsight_runs: int = 2
    """Playouts of each candidate in the real deal (the policy breaks ties at random)."""
    thresholds: Thresholds = field(default_factory=lambda: THRESHOLDS.copy())
    belief_temperature: float | None = None
    """With a temperature, worlds are kept in proportion to how well they explain the
    others' latest plays (``app.bots.belief``; an experiment of issue 31, off by
    default)."""
    belief_tries: int = 4
    """Worlds drawn at most for one kept world (then the best explaining one)."""
    belief_weighting: float | None = None
    """With a temperature, every world drawn counts in proportion to how likely the
    others' latest plays are in it (``Belief.log_likelihood``: importance weights,
    no world rejected; pruning is then off).  An experiment of issue 31, off by
    default."""


END_ROUNDS = 3
"""Rounds of cards left at which playouts go to the end of the deal (as the strong
bot's do)."""

DEFAULT = Settings()
"""The settings the server analyses with unless configured (COACH_SAMPLES)."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    card: str
    take: tuple[str, ...]
    value: float
    """Points the seat is expected to end the deal with (the hindsight: will end with)."""


@dataclass(frozen=True, slots=True)
class PlayRating:
    """The coach's verdict on one play (one entry of the analysis' ``plays``)."""

    index: int
    """The play's place in the record's ``moves`` (0 first; replay step ``index + 1``)."""
    seat: int
    card: str
    take: tuple[str, ...]
    expected: float
    best: MoveValue
    loss: float
    label: Label
    hindsight: MoveValue
    worlds: int
    """Worlds sampled for it."""
    moves: tuple[MoveValue, ...] = ()
    """Every move the coach weighed (the legal ones, or the greedy ranking's best and the
    move played when there are many), with its expected points, in the ranking's
    order: what "learn from your mistakes" offers to choose from."""
    why: Reason | None = None
    """Why it lost against the best move (``reason.py``); None when it lost nothing."""


def outlook(deal: Deal, seat: int) -> float:
    """The points the seat's side is expected to end the deal with: what it has, plus
    an even share of the card points still in play (hands, stock, table and set-aside
    spades, R5.1); exactly its points once the deal is over."""
    have = side_points(deal, seat)
    if deal.is_over:
        return float(have)
    pts = POINTS[deal.rules.nordic]
    left = sum(pts[c] for h in deal.hands for c in h)
    left += sum(pts[c] for c in deal.stock) + sum(pts[c] for c in deal.table)
    left += sum(pts[c] for c in deal.set_aside_spades)
    share = 2 if deal.rules.partnership else 1
    return have + left * share / deal.players


def side_points(deal: Deal, seat: int) -> int:
    """The seat's deal points so far; under V1 its team's (R6.2)."""
    totals = [s.total for s in deal.scores]
    if deal.rules.partnership:
        team = deal.rules.team_of(seat)
        return sum(t for s, t in enumerate(totals) if deal.rules.team_of(s) == team)
    return totals[seat]


def rate_play(
    deal: Deal,
    index: int,
    played: LegalMove,
    seed: str,
    settings: Settings = DEFAULT,
    pause: Callable[[], None] | None = None,
) -> PlayRating:
    """Rate ``played``, the move made in ``deal``'s position (not changed here).

    ``pause`` is called between worlds: the background runner uses it to yield
    the CPU to live bot moves (app/coach/runner.py).
    """
    seat = deal.to_move
    if seat is None:
        raise ValueError("the deal is over: there is no play to rate")
    legal = deal.legal()
    if played not in legal:
        raise ValueError(f"{played.card} {list(played.take)} is not legal here")
    rng = random.Random(f"{seed}:{index}")
    info = deal.information_set(seat)
    k = worlds.knowledge(info)
    now = side_points(deal, seat)
    moves = candidates(k, legal, played, settings.max_candidates)
    hindsight = _hindsight(deal, k, moves, now, rng, settings.hindsight_runs, pause)
    traces: dict[LegalMove, list[Trace]] = {m: [] for m in moves}
    means, sampled = sample_values(k, moves, played, rng, settings, pause, traces)
    expected = {m: now + v for m, v in means.items()}
    best_move = min(expected, key=lambda m: (expected[m], moves.index(m)))
    loss = max(0.0, expected[played] - expected[best_move])
    why = None
    if round(loss, 2) > 0:
        why = explain(traces[played], traces[best_move], seat, deal.rules, deal.players)
    return PlayRating(
        index,
        seat,
        played.card,
        played.take,
        round(expected[played], 2),
        MoveValue(best_move.card, best_move.take, round(expected[best_move], 2)),
        round(loss, 2),
        label(round(loss, 2), settings.thresholds),
        hindsight,
        sampled,
        tuple(MoveValue(m.card, m.take, round(expected[m], 2)) for m in moves if m in expected),
        why,
    )


def candidates(
    k: worlds.Knowledge, legal: Sequence[LegalMove], played: LegalMove | None, limit: int
) -> list[LegalMove]:
    """Every legal move, or the greedy ranking's best ``limit`` and the move played."""
    if len(legal) <= limit:
        return list(legal)
    ranked = worlds.candidates(k, legal)[:limit]
    return ranked if played is None or played in ranked else [*ranked, played]


def sample_values(
    k: worlds.Knowledge,
    moves: list[LegalMove],
    played: LegalMove | None,
    rng: random.Random,
    settings: Settings,
    pause: Callable[[], None] | None = None,
    traces: dict[LegalMove, list[Trace]] | None = None,
) -> tuple[dict[LegalMove, float], int]:
    """Each surviving candidate's mean over the sampled worlds of what the seat's side
    gains from here (its points from now to the playout's end plus that end's
    ``outlook`` share), and how many worlds were sampled.

    Only the seat's information is read (``k``); the public counts of cards left set
    the playouts' length.  ``played`` is never pruned, and while its label is
    uncertain more worlds are drawn (``Settings``); without one (a player choosing,
    app/coach/player.py) the sampling stops after ``settings.samples`` worlds.
    With ``traces`` (a list per move), what each playout did is kept there
    (``reason.trace``: the analysis explains a loss with it).
    """
    alive = list(moves)
    results: dict[LegalMove, list[float]] = {m: [] for m in moves}
    horizon = _horizon(sum(k.info.hand_counts) + k.info.stock_count, k.players, settings.rounds)
    weighting = settings.belief_weighting
    belief = worlds.belief(k) if settings.belief_temperature or weighting else None
    log_weights: list[float] = []
    side = side_of(k.info.rules, k.players, k.me)
    done = 0
    for done in range(1, settings.max_samples + 1):
        if pause is not None:
            pause()
        if settings.belief_temperature:
            hands, stock = worlds.believed_world(
                k, belief, rng, settings.belief_temperature, settings.belief_tries
            )
        else:
            hands, stock = worlds.world(k, rng)
        if weighting:
            log_weights.append(
                0.0 if belief is None else belief.log_likelihood(hands, stock, weighting)
            )
        playout_seed = rng.getrandbits(32)
        for m in alive:
            end = worlds.finish(k, hands, stock, m, playout_seed, horizon)
            # the world's deal starts at 0 points: its outlook is the gain from here
            value = outlook(end, k.me)
            results[m].append(value)
            if traces is not None:
                traces[m].append(trace(end, value, side, m == played))
        if (
            not weighting
            and done >= settings.prune_after
            and (done - settings.prune_after) % settings.prune_every == 0
        ):
            alive = _prune(alive, results, played, settings.prune_z)
            if traces is not None:  # a dropped move is never the best: free its playouts
                for m in traces.keys() - set(alive):
                    traces[m].clear()
        if done % settings.samples == 0 and (
            played is None or _settled(results, alive, played, settings)
        ):
            break
    if weighting:
        top = max(log_weights)
        weights = [math.exp(w - top) for w in log_weights]
        total = sum(weights)
        means = {
            m: sum(w * x for w, x in zip(weights, results[m], strict=True)) / total for m in alive
        }
    else:
        means = {m: statistics.fmean(results[m]) for m in alive}
    return means, done


def _horizon(left: int, players: int, rounds: int) -> int | None:
    """Plies a playout lasts after the candidate (None: to the end), with ``left``
    cards in the hands and the stock."""
    if rounds <= 0 or left <= END_ROUNDS * players:
        return None
    return rounds * players - 1


def _settled(
    results: dict[LegalMove, list[float]],
    alive: list[LegalMove],
    played: LegalMove,
    settings: Settings,
) -> bool:
    """Whether the label of the play is clear: its loss is not within ``refine_z``
    standard errors (paired) of any threshold."""
    if len(results[played]) >= settings.max_samples:
        return True
    best = min(alive, key=lambda m: (statistics.fmean(results[m]), alive.index(m)))
    if best == played:
        return True
    diffs = [a - b for a, b in zip(results[played], results[best], strict=True)]
    loss = statistics.fmean(diffs)
    se = (statistics.variance(diffs) / len(diffs)) ** 0.5
    margin = settings.refine_z * se
    th = settings.thresholds
    return all(abs(loss - t) > margin for t in (th["inaccuracy"], th["mistake"], th["blunder"]))


def _prune(
    alive: list[LegalMove],
    results: dict[LegalMove, list[float]],
    keep: LegalMove | None,
    z: float,
) -> list[LegalMove]:
    """Drop the candidates clearly worse than the leader (paired differences)."""
    leader = min(alive, key=lambda m: (statistics.fmean(results[m]), alive.index(m)))
    lead = results[leader]
    out = []
    for m in alive:
        if m in (leader, keep):
            out.append(m)
            continue
        diffs = [a - b for a, b in zip(results[m], lead, strict=True)]
        mean = statistics.fmean(diffs)
        se = (statistics.variance(diffs) / len(diffs)) ** 0.5 if len(diffs) > 1 else 0.0
        if mean <= z * se + 1e-9:
            out.append(m)
    return out


def _hindsight(
    deal: Deal,
    k: worlds.Knowledge,
    moves: list[LegalMove],
    now: int,
    rng: random.Random,
    runs: int,
    pause: Callable[[], None] | None,
) -> MoveValue:
    """The best candidate with every card known: played out in the real deal."""
    hands = [list(h) for h in deal.hands]
    stock = list(deal.stock)
    seeds = [rng.getrandbits(32) for _ in range(runs)]
    best: MoveValue | None = None
    for m in moves:
        points = []
        for s in seeds:
            if pause is not None:
                pause()
            points.append(side_points(worlds.finish(k, hands, stock, m, s), k.me))
        value = now + statistics.fmean(points)
        if best is None or value < best.value:
            best = MoveValue(m.card, m.take, round(value, 2))
    assert best is not None
    return best
