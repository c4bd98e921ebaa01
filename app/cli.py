"""The ``krypkasino`` command: scenario, simulate, bench, serve."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence


def _scenario(args: argparse.Namespace) -> int:
    from .engine import scenario
    from .engine.errors import EngineError

    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as exc:
        print(f"krypkasino: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        print(f"krypkasino: not valid JSON: {exc}", file=sys.stderr)
        return 2
    try:
        out = scenario.run(data)
    except EngineError as exc:
        print(f"krypkasino: {exc}", file=sys.stderr)
        return 2
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from .engine.errors import EngineError
    from .engine.rules import RuleSet
    from .simulation import InvariantError, simulate

    try:
        rules = RuleSet.from_dict(json.loads(args.rules) if args.rules else None)
        rules.validate_for(args.players)
    except (json.JSONDecodeError, EngineError) as exc:
        print(f"krypkasino: bad --rules: {exc}", file=sys.stderr)
        return 2
    try:
        report = simulate(args.players, args.deals, args.seed, rules)
    except InvariantError as exc:
        print(f"krypkasino: invariant broken: {exc}", file=sys.stderr)
        return 1
    rate = report.deals / report.seconds if report.seconds else float("inf")
    print(f"{report.deals} deals, {report.moves} moves, {args.players} players: "
          f"all cards conserved, scores add up; {rate:.0f} deals/s, "
          f"{report.moves / report.seconds:.0f} moves/s")
    return 0


def _add_optional(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", module: str) -> None:
    """Let a module register its own subcommand via ``add_parser(sub)``."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return  # that part of the app is not there yet
        raise
    mod.add_parser(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="krypkasino", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sc = sub.add_parser("scenario", help="play a scenario file (FORMAT.md) and print the result")
    sc.add_argument("file", help="scenario JSON file, or - for standard input")
    sc.set_defaults(func=_scenario)
    sim = sub.add_parser("simulate", help="play random deals and check the invariants (R6.3)")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--deals", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--rules", help='rule options as JSON, e.g. \'{"nordic": true}\'')
    sim.set_defaults(func=_simulate)
    _add_optional(sub, "app.bots.tournament")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
