"""Alembic environment: runs the migrations on DATABASE_URL, in one transaction.

On SQLite the migrations run on a plain (sync) connection that the
environment puts in charge of its own transactions: Python's sqlite3 module
would otherwise run DDL outside any transaction, so a migration that failed
half-way would leave half a schema.  Foreign keys are off while the
migrations run, because Alembic's batch mode rebuilds a table by copying it
and dropping the old one, and with foreign keys on, dropping ``rooms``
deletes every seat, deal, match and event that refers to it (ON DELETE
CASCADE): that lost every game of every host whose database was upgraded
across 0002, 0004 or 0006 before this (issue 35).  This is SQLite's own
recipe for changing a table (https://sqlite.org/lang_altertable.html,
"other kinds of table schema changes"): foreign keys off outside the
transaction, the rebuild, then ``PRAGMA foreign_key_check`` inside the
transaction, which must find nothing before it commits.
"""

from __future__ import annotations

from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

from app.config import get_settings
from app.core.blocking import run_to_end
from app.db.models import Base
from app.db.session import ensure_sqlite_dir, make_engine

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


class ForeignKeyViolation(RuntimeError):
    """Rows that a migration left pointing at nothing; the migration is rolled back."""


def _url() -> str:
    return str(config.attributes.get("database_url") or get_settings().database_url)


def run_migrations_offline() -> None:
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


def _check_foreign_keys(connection: Connection) -> None:
    """On SQLite, fail (and so roll back) when any row refers to a missing parent."""
    rows = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if rows:
        shown = ", ".join(f"{r[0]} row {r[1]} -> {r[2]}" for r in rows[:5])
        raise ForeignKeyViolation(
            f"the migration left {len(rows)} row(s) referring to missing rows ({shown}); "
            "nothing was changed"
        )


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=sqlite,
        # Alembic takes SQLite for a database without transactional DDL and commits
        # after each migration; with the explicit BEGIN of _sqlite_engine it has it.
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()
        if sqlite:
            _check_foreign_keys(connection)


def _sqlite_engine(url: str) -> Any:
    """A sync engine whose connections have foreign keys off and whose transactions
    (DDL included) are the ones SQLAlchemy begins, with an explicit BEGIN."""
    engine = create_engine(make_url(url).set(drivername="sqlite"), poolclass=NullPool)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # no implicit transactions: ours, below
        dbapi_conn.execute("PRAGMA foreign_keys=OFF")  # a no-op inside a transaction
        dbapi_conn.execute("PRAGMA busy_timeout=5000")

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def run_sqlite(url: str) -> None:
    ensure_sqlite_dir(url)
    engine = _sqlite_engine(url)
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


async def run_migrations_online(url: str) -> None:
    engine = make_engine(url)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def run_postgres(url: str) -> None:
    """The async engine's migrations on an event loop of their own (app/core/blocking.py:
    in a thread of their own when the caller's thread already runs a loop)."""
    run_to_end(run_migrations_online(url))


if context.is_offline_mode():
    run_migrations_offline()
elif make_url(_url()).get_backend_name() == "sqlite":
    run_sqlite(_url())
else:
    run_postgres(_url())
