"""Which database errors mean "the database is not there right now".

Those are retried, reported as ``unavailable`` and never leave a room's memory
ahead of what is stored; anything else is a bug or bad data and is logged as
such.  The list comes from what the drivers raised when a test's TCP proxy
between the server and PostgreSQL was stopped: refused connections, resets in
the middle of a statement, and the pool giving up waiting.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import exc as sa_exc

from app.core.errors import Conflict, Unavailable

P = ParamSpec("P")
T = TypeVar("T")

_ASYNCPG_OUTAGES: tuple[type[BaseException], ...]
try:
    from asyncpg import exceptions as _pg

    _ASYNCPG_OUTAGES = (
        _pg.PostgresConnectionError,
        _pg.InterfaceError,
        _pg.CannotConnectNowError,
        _pg.AdminShutdownError,
        _pg.CrashShutdownError,
    )
except ImportError:  # pragma: no cover - asyncpg is a dependency
    _ASYNCPG_OUTAGES = ()


def is_outage(exc: BaseException) -> bool:
    """True when ``exc`` says the database could not be reached or stopped answering."""
    if isinstance(exc, sa_exc.DBAPIError):
        if exc.connection_invalidated:
            return True
        if isinstance(exc, (sa_exc.OperationalError, sa_exc.InterfaceError)):
            return True
        return exc.orig is not None and is_outage(exc.orig)
    return isinstance(
        exc,
        (
            sa_exc.DisconnectionError,
            sa_exc.TimeoutError,
            OSError,
            TimeoutError,
            asyncio.TimeoutError,
            ConnectionError,
        )
        + _ASYNCPG_OUTAGES,
    )


def outages_as_unavailable(
    fn: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Report a database that is not there as ``Unavailable``, whatever the driver said.

    Every storage method wears this, so the service sees one exception for an outage
    and can tell it from a ``Conflict`` (passed through as it is) or a bug (re-raised)."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except (Conflict, Unavailable):
            raise
        except Exception as exc:
            if is_outage(exc):
                raise Unavailable(f"{type(exc).__name__}: {exc}") from exc
            raise

    return wrapper
