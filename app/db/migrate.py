"""Apply Alembic migrations from code (``krypkasino migrate`` and ``serve``)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parent.parent.parent


def alembic_config(database_url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logger"] = False
    return cfg


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database to ``revision``; runs its own event loop (call it before serving)."""
    from .session import ensure_sqlite_dir

    ensure_sqlite_dir(database_url)
    command.upgrade(alembic_config(database_url), revision)
