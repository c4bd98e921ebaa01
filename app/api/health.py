"""Readiness: can this process serve games right now?

Liveness (``/healthz``) only says the process answers; a process whose
database or Redis is away is alive but not ready: a load balancer should send
new players elsewhere, and an operator should see why.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.responses import JSONResponse

from app.broker import Broker, BrokerUnavailable
from app.core.errors import Unavailable

CHECK_TIMEOUT = 2.0
"""Seconds each dependency has to answer a readiness check."""


async def _database_ok(repo: Any) -> str:
    try:
        await asyncio.wait_for(repo.ping(), CHECK_TIMEOUT)
    except (Unavailable, TimeoutError) as exc:
        return f"unreachable ({type(exc).__name__})"
    return "ok"


async def _broker_ok(broker: Broker) -> str:
    status = broker.status()
    if not status.get("ok"):
        return "unreachable (subscriber reconnecting)"
    check = getattr(broker, "check", None)
    if check is not None:
        try:
            await asyncio.wait_for(check(), CHECK_TIMEOUT)
        except (BrokerUnavailable, TimeoutError) as exc:
            return f"unreachable ({type(exc).__name__})"
    return "ok"


async def readiness(repo: Any, broker: Broker) -> JSONResponse:
    database, redis = await asyncio.gather(_database_ok(repo), _broker_ok(broker))
    checks = {"database": database, "broker": redis}
    if all(v == "ok" for v in checks.values()):
        return JSONResponse({"status": "ready", **checks})
    failing = ", ".join(f"{k}: {v}" for k, v in checks.items() if v != "ok")
    return JSONResponse(
        {"code": "unavailable", "message": f"not ready: {failing}", **checks}, status_code=503
    )
