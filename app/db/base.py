"""The declarative base every table derives from, and the helpers the table modules
share (``models.py``, ``people_models.py``, ``feature_models.py``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

from sqlalchemy import Table
from sqlalchemy.orm import DeclarativeBase


def utc_now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


def table_of(model: type[Base]) -> Table:
    """A model's table, as the ``Table`` it is (its stubs call ``__table__`` a
    FromClause, which insert, update and delete do not take)."""
    return cast(Table, model.__table__)
