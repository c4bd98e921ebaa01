"""Where the browser client and the database migrations are, installed or not.

The repository keeps them at its top level (``static/``, ``migrations/``),
next to ``app/``. A wheel cannot install folders beside a package, so the
build puts copies inside it, as ``app/_static`` and ``app/_migrations``
(``setup.py``). An editable install (``./dev.sh``) runs from the source tree,
where only the top-level folders exist. Both places are looked up here, the
packaged copy first, so every caller finds the same files either way.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
"""The ``app`` package folder: in site-packages, or in a source checkout."""

PACKAGED_STATIC = "_static"
PACKAGED_MIGRATIONS = "_migrations"
"""The names the wheel gives the copies inside ``app/`` (``setup.py`` writes them)."""


def _find(packaged: str, top_level: str, marker: str) -> Path | None:
    """The packaged copy if there is one, else the source tree's folder.

    ``marker`` must exist inside: a stray folder of the same name beside an
    installed package (site-packages holds all kinds) is not mistaken for ours.
    """
    for candidate in (PACKAGE_DIR / packaged, PACKAGE_DIR.parent / top_level):
        if (candidate / marker).is_file():
            return candidate
    return None


def static_dir() -> Path | None:
    """The browser client's folder, or None when this installation has none."""
    return _find(PACKAGED_STATIC, "static", "index.html")


def migrations_dir() -> Path:
    """Alembic's script folder (``env.py`` and ``versions/``); always installed."""
    found = _find(PACKAGED_MIGRATIONS, "migrations", "env.py")
    if found is None:
        raise RuntimeError(
            f"the database migrations are missing: neither "
            f"{PACKAGE_DIR / PACKAGED_MIGRATIONS} nor "
            f"{PACKAGE_DIR.parent / 'migrations'} holds env.py"
        )
    return found
