"""How the broker says Redis is away: one exception, whatever the client raised.

Callers (presence, a shared review's values) carry on without the other processes
when it is raised; a bug in between is not caught by mistake, because only Redis's
own errors and the network's become ``BrokerUnavailable``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class BrokerUnavailable(Exception):
    """Redis did not answer: what the other processes hold is unknown for now."""


def outages() -> tuple[type[BaseException], ...]:
    from redis.exceptions import RedisError

    return (RedisError, OSError, TimeoutError)


def redis_calls(fn: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """Report Redis and network errors of ``fn`` as ``BrokerUnavailable``."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except outages() as exc:
            raise BrokerUnavailable(f"{type(exc).__name__}: {exc}") from exc

    return wrapper
