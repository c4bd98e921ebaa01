"""Tournaments (issue 49): Swiss and duplicate events played in the server's rooms.

The rules of an event are pure functions (``scoring``, ``seating``, ``standings``);
``service`` runs an event over a store and the room service, and advances it when a
table's match ends (a ``match_ended`` domain event, app/core/outbox.py)."""
