"""Bots that play Krypkasino from what their seat may know.

The package only re-exports its face (levels.py): ``choose`` for the
engine's typed objects (an ``InformationSet`` and its ``LegalMove`` list),
``choose_move`` for a view dict, and ``LEVELS``.  Submodules import one
another directly, never this package, so the imports run one way
(tests/bots/test_imports.py checks it).
"""

from __future__ import annotations

from .levels import LEVELS, BotLevel, choose, choose_move

__all__ = ["LEVELS", "BotLevel", "choose", "choose_move"]
