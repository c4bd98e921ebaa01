"""Sign-ins through the OpenID Connect provider under way, in SQL: the
``PendingStore`` of ``app/accounts/oidc.py``.

``take`` deletes the row and counts what it deleted, in one transaction: of two
callbacks with one state (a replay, two processes) exactly one gets the row.
"""

from __future__ import annotations

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from app.accounts.oidc import Pending

from .models import OidcPending, table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository

PENDING = table_of(OidcPending)


class PendingRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def put(self, state_hash: str, pending: Pending, now_ms: int) -> None:
        await self.repo._run_write(_put, state_hash, pending, now_ms)

    @outages_as_unavailable
    async def take(self, state_hash: str) -> Pending | None:
        return await self.repo._run_write(_take, state_hash)


def _put(conn: Connection, state_hash: str, pending: Pending, now_ms: int) -> None:
    conn.execute(delete(PENDING).where(PENDING.c.expires_ms < now_ms))
    conn.execute(
        insert(PENDING).values(
            state_hash=state_hash,
            nonce=pending.nonce,
            code_verifier=pending.code_verifier,
            redirect_uri=pending.redirect_uri,
            expires_ms=pending.expires_ms,
        )
    )


def _take(conn: Connection, state_hash: str) -> Pending | None:
    row = conn.execute(select(PENDING).where(PENDING.c.state_hash == state_hash)).first()
    if row is None:
        return None
    gone = conn.execute(delete(PENDING).where(PENDING.c.state_hash == state_hash))
    if gone.rowcount != 1:  # another callback took it first
        return None
    return Pending(row.nonce, row.code_verifier, row.redirect_uri, int(row.expires_ms))
