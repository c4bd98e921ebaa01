"""Handing the outbox's domain events (app/core/outbox.py) to their subscribers."""
