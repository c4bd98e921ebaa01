"""Clubs (issue 49): a named club of accounts with roles (owner, organisers, members),
an invite link and join requests, and the limits that keep a club from flooding the
server.  Club-only rooms and tournaments attach to a club later (its page's ``rooms``
and ``events`` are empty until then).

Pure parts: ``errors`` (the clubs' refusal codes), ``rules`` (roles and who may do
what, a club's name and description, the limits).  With I/O: ``service`` (what the API
asks, rate-limited per account) over the ``store`` Protocol that app/db/clubs.py
implements; each write checks its rule inside the transaction that makes it, so that a
role changed in between cannot be acted on.  docs/protocol.md, "Clubs".
"""
