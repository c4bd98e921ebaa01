"""How much the others' plays say about the next player's hand (not a test).

At every position of some bot deals where the next player has played from its
present hand, worlds are sampled as the strong bot samples them, and each of the
thirteen hand values (2 to the ace's 14) gets the share of worlds in which the
next player holds one: a guess of that hand.  Its log-loss against the real hand,
summed over values and positions, is compared for three ways of sampling:

* ``no gaps``: the unseen cards dealt uniformly, the plays ignored;
* ``gaps`` (the strong bot's and the coach's worlds): keeping out the values the
  plays prove a player lacks (R4.1, ``inference.proven_lacks``);
* ``weighted T``: those worlds weighed by how likely the others' latest plays are
  in each (``Belief.log_likelihood`` at temperature T, app/bots/belief.py).

The percentages are the log-loss saved against ``gaps``: the share of the
uncertainty about that hand the evidence removes (a world holding the real hands
would remove all of it).

    .venv/bin/python bench/inference.py --level strong --deals 6 --worlds 256 --temps 0.25,0.5,1

Results: docs/bots.md, "What the others' plays say about their hands".
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots import greedy, strong  # noqa: E402
from app.bots.belief import belief_of  # noqa: E402
from app.bots.knowledge import knowledge_of  # noqa: E402
from app.engine.cards import hand_value  # noqa: E402
from app.engine.deal import Deal  # noqa: E402
from app.engine.rules import RuleSet  # noqa: E402
from app.engine.shuffle import shuffled_pack  # noqa: E402

VALUES = range(2, 15)
"""Hand values: 2 to 13 and the ace's 14 (R1.4)."""


def log_loss(p: float, held: bool) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -math.log(p if held else 1 - p)


def guess_loss(weights: list[float], held_values: list[set[int]], truth: set[int]) -> float:
    """Log-loss of the weighted share of worlds holding each value, against the truth."""
    total = sum(weights)
    return sum(
        log_loss(
            sum(w for w, hv in zip(weights, held_values, strict=True) if v in hv) / total,
            v in truth,
        )
        for v in VALUES
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--level", choices=("greedy", "strong"), default="strong")
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--worlds", type=int, default=256)
    ap.add_argument("--temps", default="0.25,0.5,1")
    ap.add_argument(
        "--budget", type=float, default=0.05, help="the strong bots' CPU seconds a move"
    )
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    temps = [float(t) for t in args.temps.split(",")]
    rng = random.Random(args.seed)
    losses: dict[str, float] = {"no gaps": 0.0, "gaps": 0.0} | {f"weighted {t}": 0.0 for t in temps}
    positions = 0
    for g in range(args.deals):
        rules = RuleSet()
        deal = Deal.from_pack(rules, 4, g % 4, shuffled_pack(f"inference:{args.seed}:{g}", 2))
        bot_rng = random.Random(g)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            info = deal.information_set(seat)
            k = knowledge_of(info)
            belief = belief_of(k)
            nxt = (seat + 1) % deal.players
            if (
                belief is not None
                and k.hand_counts[nxt]
                and any(p.seat == nxt for p in belief.plays)
            ):
                truth = {hand_value(c) for c in deal.hands[nxt]}
                worlds = [info.sample_hidden(rng, k.lacks) for _ in range(args.worlds)]
                held = [{hand_value(c) for c in hands[nxt]} for hands, _ in worlds]
                free = [
                    {hand_value(c) for c in info.sample_hidden(rng, {})[0][nxt]} for _ in worlds
                ]
                ones = [1.0] * len(worlds)
                losses["no gaps"] += guess_loss(ones, free, truth)
                losses["gaps"] += guess_loss(ones, held, truth)
                for t in temps:
                    logs = [belief.log_likelihood(h, s, t) for h, s in worlds]
                    top = max(logs)
                    losses[f"weighted {t}"] += guess_loss(
                        [math.exp(x - top) for x in logs], held, truth
                    )
                positions += 1
            legal = deal.legal()
            if args.level == "greedy":
                move = greedy.choose(info, legal)
            else:
                move = strong.choose(
                    info, legal, bot_rng, budget_s=args.budget, clock=time.thread_time
                )
            deal.play_legal(move.move, move.kind)
    base = losses["gaps"]
    print(
        json.dumps(
            {
                "level": args.level,
                "deals": args.deals,
                "positions": positions,
                "worlds": args.worlds,
                "log_loss_per_position": round(base / positions, 4),
                "saved_against_gaps": {
                    name: round(100 * (base - loss) / base, 2) for name, loss in losses.items()
                },
            }
        )
    )


if __name__ == "__main__":
    main()
