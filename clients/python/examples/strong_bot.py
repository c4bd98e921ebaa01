"""The project's own strong bot, as an outside bot: a reference opponent.

    python examples/strong_bot.py --server http://127.0.0.1:8000 --room ABCD

It needs the server's package (``app``) importable, so it runs where the server is
installed (the repository's virtual environment, or ``pip install`` of its wheel):
the server's bots choose a move from a view dict of the protocol
(``app.bots.choose_move``), the very view this client keeps, so nothing is rebuilt.
Only what the seat's view shows reaches the search: no other hand, no stock order.
"""

from __future__ import annotations

import random

from krypkasino_client import Move, View, arguments, run_command_line

from app.bots import LEVELS, choose_move  # the server's package (see above)


def main() -> None:
    parser = arguments("Play a room with the server's own bots.", "Sterling")
    parser.add_argument("--level", choices=LEVELS, default="strong", help="which of the bots")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds to think a move")
    parser.add_argument("--seed", type=int, default=None, help="seed of its dice")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    def choose(view: View) -> Move:
        chosen = choose_move(view.raw, args.level, rng=rng, budget_s=args.budget)
        return Move(chosen["card"], tuple(chosen["take"]))

    run_command_line(args, choose)


if __name__ == "__main__":
    main()
