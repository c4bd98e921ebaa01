"""Build hook: the wheel carries the browser client and the migrations.

Everything else about the package is declared in pyproject.toml. The
repository keeps ``static/`` and ``migrations/`` at its top level, but a
wheel can only install files inside its packages, so this copies them into
the built package as ``app/_static`` and ``app/_migrations`` (the names
``app/resources.py`` looks for). A copy at build time, rather than a
``package-dir`` mapping, because the folders are not Python packages (no
``__init__.py``, folders of CSS, JSON and templates) and an editable install
should keep using the source tree as it is: there the hook does nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = {"static": "app/_static", "migrations": "app/_migrations"}
"""Top-level folder of the repository -> where it goes inside the built package."""
SKIP = shutil.ignore_patterns("__pycache__", "*.py[cod]", "node_modules", ".DS_Store")


class BuildWithBundledFolders(build_py):
    """``build_py`` that also copies the BUNDLED folders into the build."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source, target in BUNDLED.items():
            src = HERE / source
            if not src.is_dir():
                raise FileNotFoundError(f"{src} is missing: the wheel would ship without it")
            dest = Path(self.build_lib, target)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(src, dest, ignore=SKIP)


setup(cmdclass={"build_py": BuildWithBundledFolders})
