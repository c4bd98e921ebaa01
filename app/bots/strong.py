"""The ``strong`` bot: determinized Monte Carlo search over the seat's knowledge.

A *world* is one way the cards the seat cannot see (``knowledge.unseen``)
could lie: they are shuffled and dealt to the other hands (by their counts)
and the stock, keeping out of each hand the values that seat has shown it
lacks (``inference.proven_lacks``).  The engine builds the world from the
seat's information set (``InformationSet.sample_hidden`` and
``Deal.from_information_set``): the table as it lies, the last capturer
carried over and the set-aside pictures (R5.1) as in the real deal.

Every candidate move (the greedy ranking's best ``MAX_CANDIDATES``) is played
in the same worlds with the same playout randomness (common random numbers,
so differences between moves are not drowned in the luck of the deal), and
the playout continues with the greedy cost function, knowing the sampled
hands, for ``horizon`` plies (to the end of the deal once that is near).  A
playout is scored for the bot's side as its score change minus the mean
change of the others (the team's under V1), plus the point cards still held
(weighted as greedy weighs them).  The lowest mean wins.

A world's deal is built (and its position checked) once; each candidate is
played on a copy (``app.engine.fork``), the same state as a rebuilt deal.
Worlds are sampled until the time budget is spent; candidates that trail the
leader clearly (paired differences) are dropped on the way, and the search
ends early when one is left.  docs/bots.md describes the whole bot and how it
compared with information-set MCTS (``ismcts.py``) at equal thinking time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from app.engine.cards import ALL_CODES, Card, hand_value
from app.engine.counts import table_counts
from app.engine.deal import Deal
from app.engine.fork import fork
from app.engine.infoset import InformationSet
from app.engine.moves import (
    DOUBLE_SWEEP,
    POINTS,
    SWEEP_CREDIT,
    LegalMove,
    Move,
    move_points,
    sweep_kind,
)
from app.engine.rules import RuleSet
from app.engine.takes import can_sweep, sweeping_values
from app.engine.turns import deal_packet

from .greedy import DOUBLE_SWEEP_VALUE, HAND_WEIGHT, SWEEP_VALUE, Costs, TrapOdds, ranked_moves
from .knowledge import Knowledge, knowledge_of, prob_none

MAX_CANDIDATES = 8
SAFETY = 0.85
"""Share of the budget the search may use (the rest covers setup and the answer)."""
END_PLIES_FACTOR = 3
"""Play out to the end of the deal when at most this many rounds remain."""
OPPONENT_MODEL = "exact"
"""How the other seats judge traps in a playout: "exact" from the sampled world's next
hand, or "odds" over the cards they cannot see, as the greedy bot does."""
SELF_MODEL = "exact"
"""The same for the bot's own later plays in a playout."""
EXTRA_PLIES = 1
"""With 5-6 players a playout lasts one round and this many plies (``default_horizon``)."""
PRUNE_AFTER = 16
"""Worlds sampled before candidates may be dropped (and then every PRUNE_EVERY)."""
PRUNE_EVERY = 6
PRUNE_Z = 2.5
"""A candidate is dropped when it trails the leader by this many standard errors."""

last_search: dict[str, float] = {}
"""Diagnostics of the latest search in this process (worlds sampled, candidates, time)."""


def choose(
    info: InformationSet,
    legal: Sequence[LegalMove],
    rng: random.Random | None = None,
    *,
    budget_s: float = 0.5,
    iterations: int | None = None,
    horizon: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> LegalMove:
    """The candidate of ``legal`` (the moves of ``info``'s seat, to move) with the best
    mean playout result.

    ``iterations`` fixes the number of sampled worlds instead of the clock
    (deterministic for a seeded ``rng``: tests use it); ``horizon`` is the
    number of plies a playout lasts, the candidate move included
    (``default_horizon``).  ``clock`` measures the budget: wall time for
    live games; the benchmarks pass ``time.thread_time`` so that variants
    compared on a loaded machine get the same thinking time (bench/search.py).
    """
    start = clock()
    rng = rng if rng is not None else random.Random()
    if len(legal) == 1:
        return legal[0]
    k = knowledge_of(info)
    ranked = ranked_moves(k, legal)
    if not k.consistent:
        return ranked[0][1]
    candidates = [m for _, m in ranked[:MAX_CANDIDATES]]
    n = k.players
    if horizon is None:
        horizon = default_horizon(n)
    remaining = sum(k.hand_counts) + k.stock_count
    if remaining <= END_PLIES_FACTOR * n:
        horizon = remaining  # near the end: play it out exactly
    deadline = start + budget_s * SAFETY
    alive = list(range(len(candidates)))
    results: list[list[float]] = [[] for _ in candidates]
    done = 0
    while len(alive) > 1:
        if iterations is not None:
            if done >= iterations:
                break
        elif clock() >= deadline:
            break
        hands, stock = sample_world(k, rng)
        seed = rng.getrandbits(32)
        values = []
        world = build_deal(k, hands, stock)
        for i in alive:
            move = candidates[i]
            deal = fork(world)  # the same as building the world again, without its checks
            deal.apply(move.card, move.take)
            values.append(playout(deal, k.me, random.Random(seed), horizon - 1))
            if iterations is None and done and clock() >= deadline:
                break
        if len(values) < len(alive):
            break  # out of time mid-world: keep the comparison paired
        for i, v in zip(alive, values, strict=True):
            results[i].append(v)
        done += 1
        if done >= PRUNE_AFTER and (done - PRUNE_AFTER) % PRUNE_EVERY == 0:
            alive = _prune(alive, results)
    last_search.update(
        worlds=done,
        candidates=len(candidates),
        left=len(alive),
        seconds=clock() - start,
    )
    if not done:
        return ranked[0][1]
    best = min(alive, key=lambda i: (sum(results[i]), i))
    return candidates[best]


def default_horizon(players: int) -> int:
    """Plies of a playout, the candidate included: two rounds; one round and a ply for 5-6.

    Two rounds cover the bot's own next turn (where traps are set for it) and the
    others' replies to it; with many players the shorter playout, which still
    reaches the bot's next turn, samples more worlds and measured at least as
    well (docs/bots.md).
    """
    return 2 * players if players <= 4 else players + EXTRA_PLIES


def _prune(alive: list[int], results: list[list[float]]) -> list[int]:
    """Drop the candidates that are clearly worse than the leader (paired differences)."""
    leader = min(alive, key=lambda i: (sum(results[i]), i))
    lead = results[leader]
    keep = []
    for i in alive:
        if i == leader:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(results[i], lead, strict=True)]
        w = len(diffs)
        mean = sum(diffs) / w
        var = sum((d - mean) ** 2 for d in diffs) / (w - 1)
        if mean <= PRUNE_Z * (var / w) ** 0.5 + 1e-9:
            keep.append(i)
    return keep


# ---------------------------------------------------------------- worlds


def sample_world(k: Knowledge, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Hidden hands and stock drawn at random, consistent with what the seat knows (and
    what the others provably lack)."""
    return k.info.sample_hidden(rng, k.lacks)


def build_deal(k: Knowledge, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> Deal:
    """The engine deal of one sampled world, the bot's seat to move."""
    return Deal.from_information_set(k.info, hands, stock)


# -------------------------------------------------------------- playouts

_HV: dict[Card, int] = {c: hand_value(c) for c in ALL_CODES}


def playout(deal: Deal, me: int, rng: random.Random, plies: int) -> float:
    """Play ``plies`` more moves with the playout policy; the result for ``me``'s side."""
    hidden = [0] * 15  # hand values of the cards in all hands and the stock
    for hand in deal.hands:
        for c in hand:
            hidden[_HV[c]] += 1
    for c in deal.stock:
        hidden[_HV[c]] += 1
    while plies > 0 and not deal.is_over:
        move, kind = policy_move(deal, rng, hidden, me)
        deal.play_legal(move, kind)
        hidden[_HV[move.card]] -= 1
        plies -= 1
    return evaluate(deal, me)


def evaluate(deal: Deal, me: int) -> float:
    """``me``'s side's score change minus the others' mean, plus point cards held."""
    rules = deal.rules
    pts = POINTS[rules.nordic].__getitem__
    n = deal.players
    per_seat: list[float] = []
    over = deal.is_over
    for seat in range(n):
        v = float(deal.scores[seat].total)
        if not over:
            v += HAND_WEIGHT * sum(map(pts, deal.hands[seat]))
        per_seat.append(v)
    if rules.partnership:
        mine = rules.team_of(me)
        us = sum(v for s, v in enumerate(per_seat) if rules.team_of(s) == mine)
        them = sum(v for s, v in enumerate(per_seat) if rules.team_of(s) != mine)
        return us - them
    own = per_seat[me]
    return own - (sum(per_seat) - own) / (n - 1)


def policy_move(
    deal: Deal, rng: random.Random, hidden: list[int] | None = None, me: int | None = None
) -> tuple[Move, str]:
    """The greedy cost, ties broken at random.

    With ``hidden`` (hand-value counts of every card in a hand or the stock),
    the mover judges traps as the greedy bot does, by the odds over the cards
    it cannot see; without, it knows the next hand of the sampled world.
    """
    kinds = deal.legal_kinds()
    if len(kinds) == 1:
        return next(iter(kinds.items()))
    seat = deal.to_move
    assert seat is not None

    odds: TrapOdds
    model = SELF_MODEL if seat == me else OPPONENT_MODEL
    if hidden is not None and model == "odds":
        unseen = list(hidden)  # what the mover cannot see: every hand but its own, the stock
        for c in deal.hands[seat]:
            unseen[_HV[c]] -= 1
        odds = chance_odds(unseen, deal.rules)
    else:
        odds = _exact_odds(deal)

    costs = deal_costs(deal, seat, odds)
    nordic = deal.rules.nordic
    credit = SWEEP_CREDIT
    best: tuple[Move, str] | None = None
    best_cost = 0.0
    for move, kind in kinds.items():
        card, take = move  # with the engine's facts of it: its card points and sweep credit
        points = move_points(card, take, nordic)
        cost = costs.cost(card, take, kind, points, credit[kind]) + rng.random() * 0.05
        if best is None or cost < best_cost:
            best, best_cost = (move, kind), cost
    assert best is not None
    return best


def deal_costs(deal: Deal, seat: int, odds: TrapOdds) -> Costs:
    """The greedy cost function for ``seat``, to move in ``deal`` (a world the search
    or the belief holds), trap credit judged by ``odds``."""
    return Costs(
        deal.rules,
        deal.players,
        deal.dealer,
        seat,
        deal.table,
        [len(h) for h in deal.hands],
        len(deal.stock),
        deal.last_capturer,
        deal.set_aside_spades,
        odds,
    )


def chance_odds(unseen: Sequence[int], rules: RuleSet) -> TrapOdds:
    """Trap credit as the greedy bot judges it, by the odds: ``unseen`` counts, per hand
    value, the cards the mover cannot see; the next hand is ``size`` of them at random."""
    pool = sum(unseen)

    def odds(offered: Sequence[Card], nxt: int, size: int, new_packet: bool) -> float:
        values = sweeping_values(offered, rules)
        if not values:
            return 0.0
        good = sum(unseen[v] for v in values)
        return SWEEP_VALUE * (1.0 - prob_none(pool, good, size))

    return odds


def _exact_odds(deal: Deal) -> TrapOdds:
    """Trap credit when the next hand of the world is known: does one of its cards sweep?

    Asks the engine's ``can_sweep`` for the (at most a packet of) cards of that
    hand rather than for all thirteen values (``sweeping_values``): the same
    answer, in a fraction of the time the playouts spend here.
    """
    pairs = deal.rules.picture_pairs

    def odds(offered: Sequence[Card], nxt: int, size: int, new_packet: bool) -> float:
        if not offered:
            return 0.0
        hand = deal.hands[nxt] if not new_packet else _packet_hand(deal, nxt)
        values = sweeping_value_set(table_counts(offered), pairs)
        sweepers = [c for c in hand if _HV[c] in values]
        if not sweepers:
            return 0.0
        if all(sweep_kind(c, tuple(offered)) == DOUBLE_SWEEP for c in sweepers):
            return float(DOUBLE_SWEEP_VALUE)  # only the twin can take it (R4.3)
        return float(SWEEP_VALUE)

    return odds


_SWEEPING: dict[int, frozenset[int]] = {}
"""Memo of ``sweeping_value_set``: tables recur across worlds, candidates and plies."""
MEMO_LIMIT = 200_000
"""Entries kept before the memo starts afresh (a long-lived worker stays bounded)."""
_HAND_VALUES = tuple(sorted(set(_HV.values())))


def sweeping_value_set(counts: int, picture_pairs: bool) -> frozenset[int]:
    """The hand values that take the whole table of ``counts`` (``takes.can_sweep`` of each),
    remembered per table: the playouts ask for the same few tables again and again."""
    key = counts << 1 | picture_pairs
    got = _SWEEPING.get(key)
    if got is None:
        if len(_SWEEPING) >= MEMO_LIMIT:
            _SWEEPING.clear()
        got = _SWEEPING[key] = frozenset(
            v for v in _HAND_VALUES if can_sweep(counts, v, picture_pairs)
        )
    return got


def _packet_hand(deal: Deal, seat: int) -> list[Card]:
    """The cards ``seat`` gets in the next packet of this world (R2.5, V7)."""
    return deal_packet(deal.stock, deal.players, deal.dealer)[0][seat]
