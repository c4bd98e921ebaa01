"""Shared test helpers: where fixtures live, and skipping rules for optional services.

Tests that need PostgreSQL, Redis or Chromium skip with a reason when the
service is missing on a user's machine; under CI=true they must run, so a
missing service there is a failure, not a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
IN_CI = os.environ.get("CI", "").lower() == "true"


def require_service(available: bool, reason: str) -> None:
    """Skip (locally) or fail (CI=true) when a service the test needs is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: this test must run)")
    pytest.skip(reason)
