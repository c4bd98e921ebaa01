"""A bot that plays a random legal move: the smallest bot there is.

    python examples/random_bot.py --server http://127.0.0.1:8000 --room ABCD

takes the next free seat of room ABCD (its code, id or invite link), plays until the
match is over and prints a summary as one line of JSON.  With a bot account's token,
``--listen`` (instead of ``--room``) waits on its event stream and plays every game
it is seated in (``--accept-challenges``: and every challenge), a summary a game.
"""

from __future__ import annotations

import random

from krypkasino_client import Move, View, arguments, run_command_line


def choose(view: View) -> Move:
    """Any of the moves the server lists as legal for this seat (``view.legal``; the
    view also has ``hand``, ``table``, ``scores``, ``log`` and the rest)."""
    return random.choice(view.legal).move


if __name__ == "__main__":
    run_command_line(
        arguments("Play a room with random legal moves.", "Randy").parse_args(), choose
    )
