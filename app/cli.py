"""The ``krypkasino`` command: scenario, simulate, serve, migrate, tournament, and the
operator's purge, rooms and admin-token (app/ops/cli.py).

Start-up is part of what ``simulate`` and ``scenario`` cost (issue 14 times
whole processes), so this module imports only the standard library's
argparse, json and sys at the top; a command imports what it needs when it
runs, and those two commands do not import the others' modules at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket

    import uvicorn

    from .config import Settings
    from .engine.rules import RuleSet


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


class UsageError(Exception):
    """A bad option value: ``main`` prints it on one line and exits with 2."""


def rules_option(text: str | None, players: int) -> RuleSet:
    """The ``--rules JSON`` option of simulate and tournament, checked for ``players``."""
    from .engine.errors import EngineError
    from .engine.rules import rules_from_text

    try:
        return rules_from_text(text, players)
    except EngineError as exc:
        raise UsageError(f"bad --rules: {exc}") from None


def _simulate(args: argparse.Namespace) -> int:
    from .simulation import InvariantError, simulate

    rules = rules_option(args.rules, args.players)
    try:
        report = simulate(args.players, args.deals, args.seed, rules)
    except InvariantError as exc:
        print(f"krypkasino: invariant broken: {exc}", file=sys.stderr)
        return 1
    rate = report.deals / report.seconds if report.seconds else float("inf")
    print(
        f"{report.deals} deals, {report.moves} moves, {args.players} players: "
        f"all cards conserved, scores add up; {rate:.0f} deals/s, "
        f"{report.moves / report.seconds:.0f} moves/s"
    )
    return 0


def migrate_or_refuse(settings: Settings, confirmed: bool) -> None:
    """Migrate DATABASE_URL (app/db/migrate.py: the checks and the backup first), saying
    what was done; a refusal becomes a usage error: its message, exit status 2."""
    from pathlib import Path

    from .db.migrate import MigrationRefused, upgrade

    backup_dir = Path(settings.backup_dir) if settings.backup_dir else None
    try:
        done = upgrade(settings.database_url, confirmed=confirmed, backup_dir=backup_dir)
    except MigrationRefused as exc:
        raise UsageError(f"not migrated: {exc}") from None
    if done.backup is not None:
        print(f"backup of schema {done.previous} before migrating: {done.backup}", flush=True)
    if done.applied:
        print(f"migrated {done.previous or 'a new database'} -> {done.head}", flush=True)


def _migrate(args: argparse.Namespace) -> int:
    from .config import get_settings

    settings = get_settings()
    migrate_or_refuse(settings, args.yes)
    print(f"database is up to date: {_safe_url(settings.database_url)}")
    return 0


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _ladder_store() -> tuple[Settings, Any]:
    """``krypkasino ladder``'s settings and rows on DATABASE_URL, migrated first."""
    from .config import get_settings
    from .db.ladder import opened

    settings = get_settings()
    migrate_or_refuse(settings, False)
    return settings, opened(settings.database_url)


def _serve(args: argparse.Namespace) -> int:
    from . import gc_tuning
    from .config import get_settings
    from .limits.files import raise_open_files_limit
    from .logs import configure
    from .main import create_app

    settings = get_settings()
    host = args.host or settings.host
    port = args.port if args.port is not None else settings.port
    if settings.metrics_port is not None and settings.metrics_port == port:
        raise UsageError(f"METRICS_PORT {settings.metrics_port} is also the server's port")
    configure(settings.log_level, settings.log_json)
    raise_open_files_limit()
    migrate_or_refuse(settings, args.yes)
    shown = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1") else host
    url = settings.public_url or f"http://{shown}:{port}/"
    print(f"Krypkasino Online: {url}  (database: {_safe_url(settings.database_url)})", flush=True)
    app = create_app(settings)
    # Everything imported by now lives as long as the process (app/gc_tuning.py).
    gc_tuning.tune(gc_tuning.parse_thresholds(settings.gc_thresholds))
    config = uvicorn_config(app, settings, host, port)
    server = _graceful_server_class()(config)
    if settings.metrics_port is None:
        server.run()
        return 0
    # A second listener for /metrics (app/metrics_access.py tells the two apart): both
    # sockets go to the one server, so they share its loop, lifespan and shutdown.
    sockets = [config.bind_socket(), _bind(settings.metrics_host, settings.metrics_port)]
    print(f"Metrics: http://{settings.metrics_host}:{settings.metrics_port}/metrics", flush=True)
    server.run(sockets=sockets)
    return 0


def uvicorn_config(app: Any, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """uvicorn's configuration for ``serve``: the HTTP limits (HEADER_TIMEOUT through
    our httptools protocol, IDLE_TIMEOUT) and the trusted proxies, whose
    X-Forwarded-For gives the client address every per-address limit counts
    (app/limits/clients.py)."""
    import uvicorn

    from .limits.headers import protocol_class
    from .realtime.socket_protocol import SharedDeflateProtocol

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        http=protocol_class(settings.header_timeout),
        timeout_keep_alive=settings.idle_timeout,  # type: ignore[arg-type]
        ws_max_size=64 * 1024,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=20,
        ws_per_message_deflate=settings.ws_compression,
        ws=SharedDeflateProtocol,
        timeout_graceful_shutdown=5,
        proxy_headers=True,
        forwarded_allow_ips=settings.proxies,
    )


def _bind(host: str, port: int) -> socket.socket:
    """A bound (not yet listening) TCP socket, as uvicorn's Config.bind_socket makes them."""
    import socket

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port} for metrics: {exc.strerror}") from None
    return sock


def _graceful_server_class() -> type:
    import asyncio
    import logging

    import uvicorn

    class GracefulServer(uvicorn.Server):
        """On SIGTERM, first let the rooms finish moves in flight and tell every client
        to reconnect (to another process, or to this one once it is back); only then
        let uvicorn close the sockets."""

        async def shutdown(self, sockets=None):  # type: ignore[no-untyped-def]
            services = getattr(getattr(self.config.app, "state", None), "services", None)
            service = getattr(services, "rooms", None)
            if service is not None:
                try:
                    await service.stop()
                    await asyncio.sleep(0.2)  # let the writer tasks send the notice
                except Exception:  # noqa: BLE001 - a shutdown must go on whatever failed
                    logging.getLogger("krypkasino").exception("graceful stop failed")
            await super().shutdown(sockets=sockets)

    return GracefulServer


def _add_optional(sub: argparse._SubParsersAction[argparse.ArgumentParser], module: str) -> None:
    """Let a module register its own subcommand via ``add_parser(sub)``."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return  # that part of the app is not there yet
        raise
    mod.add_parser(sub)


LEAN_COMMANDS = ("scenario", "simulate")
"""Commands that need only the engine: their parser is built without the others'."""


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The command's parser; ``full=False`` leaves out the commands whose parsers
    import the server's modules (tournament, the operator's commands)."""
    parser = argparse.ArgumentParser(prog="krypkasino", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sc = sub.add_parser("scenario", help="play a scenario file (FORMAT.md) and print the result")
    sc.add_argument("file", help="scenario JSON file, or - for standard input")
    sc.set_defaults(func=_scenario)
    sim = sub.add_parser("simulate", help="play random deals and check the invariants (R6.3)")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--deals", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--rules", help="rule options as JSON, e.g. '{\"nordic\": true}'")
    sim.set_defaults(func=_simulate)
    yes = "on PostgreSQL, migrate without a backup of the migration's own (take one first)"
    mig = sub.add_parser(
        "migrate",
        help="apply database migrations to DATABASE_URL (a SQLite database is backed up first)",
    )
    mig.add_argument("--yes", action="store_true", help=yes)
    mig.set_defaults(func=_migrate)
    srv = sub.add_parser("serve", help="apply migrations and run the server")
    srv.add_argument("--host", help="address to listen on (default HOST or 127.0.0.1)")
    srv.add_argument("--port", type=int, help="port (default PORT or 8000)")
    srv.add_argument("--yes", action="store_true", help=yes)
    srv.set_defaults(func=_serve)
    if full:
        from .ops import cli as ops_cli

        _add_optional(sub, "app.bots.tournament")
        from .ladder import cli as ladder_cli

        ladder_cli.add_parser(sub, _ladder_store)
        ops_cli.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    full = not argv or argv[0] not in LEAN_COMMANDS
    parser = build_parser(full)
    args = parser.parse_args(argv)
    usage_errors: tuple[type[Exception], ...] = (UsageError,)
    if full:
        from .ops import cli as ops_cli

        usage_errors += (ops_cli.UsageError,)
    try:
        return int(args.func(args))
    except usage_errors as exc:
        print(f"krypkasino: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
