"""Persistence: SQLAlchemy 2 models, the async engine, and the room repository."""
