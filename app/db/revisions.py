"""This release's Alembic migrations: where they are, which revisions they know, and
running them up to a revision.

Alembic is configured here rather than from ``alembic.ini``: an installed
wheel has no ini file, and the only settings the server needs are where the
scripts are (``app.resources``) and the database URL. ``alembic.ini`` stays
in the repository for the ``alembic`` command (``alembic revision``).
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from ..resources import migrations_dir
from .session import ensure_sqlite_dir


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("path_separator", "os")  # what alembic.ini says; silences a warning
    cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logger"] = False
    return cfg


def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def head_revision() -> str:
    head = scripts().get_current_head()
    assert head is not None, "no migrations"
    return head


def known_revisions() -> set[str]:
    """Every revision this release's migrations know."""
    return {rev.revision for rev in scripts().walk_revisions()}


def pending_revisions(current: str | None) -> tuple[str, ...]:
    """The revisions an upgrade from ``current`` (a known one) applies, oldest first."""
    script = scripts()
    steps = script.iterate_revisions(head_revision(), current)
    return tuple(reversed([rev.revision for rev in steps]))


def apply(url: str, revision: str) -> None:
    """Run the migrations up to ``revision`` with no checks (an empty database that
    ``restore`` fills, a test); runs its own event loop."""
    ensure_sqlite_dir(url)
    command.upgrade(alembic_config(url), revision)
