"""GET /api/rules: the catalogue of rule options, as the engine defines them.

The lobby builds its form from it (which options exist, their ranges, the
player counts each allows, which exclude each other), so no client keeps a
copy of a rule fact.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from app.engine.rules import catalogue

router = APIRouter(prefix="/api", tags=["rules"])
_CATALOGUE = catalogue()


@router.get("/rules")
async def rule_options(response: Response) -> dict[str, Any]:
    """Every rule option of RULES.md R7: name, variant, label, type, default, range,
    scope (deal or match), allowed player counts and incompatible options."""
    response.headers["Cache-Control"] = "public, max-age=300"
    return _CATALOGUE
