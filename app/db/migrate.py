"""Apply Alembic migrations from code (``krypkasino migrate`` and ``serve``).

Alembic is configured here rather than from ``alembic.ini``: an installed
wheel has no ini file, and the only settings the server needs are where the
scripts are (``app.resources``) and the database URL. ``alembic.ini`` stays
in the repository for the ``alembic`` command (``alembic revision``).
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from ..resources import migrations_dir


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("path_separator", "os")  # what alembic.ini says; silences a warning
    cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logger"] = False
    return cfg


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database to ``revision``; runs its own event loop (call it before serving)."""
    from .session import ensure_sqlite_dir

    ensure_sqlite_dir(database_url)
    command.upgrade(alembic_config(database_url), revision)
