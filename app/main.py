"""The FastAPI application: wiring of settings, database, broker, room service and routes."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint

from app.api import admin, errors, rooms, ws
from app.api.admin_auth import AdminGate
from app.broker import make_broker
from app.config import Settings, get_settings
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.metrics import Metrics
from app.ops.botload import BotLoad
from app.ops.retention import Retention
from app.rooms.service import RoomService

STATIC = Path(__file__).resolve().parent.parent / "static"
MAX_BODY = 16 * 1024

PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8">
<title>Krypkasino Online</title><h1>Krypkasino Online</h1>
<p>The server runs; the browser client is not installed here (static/index.html).</p>"""


class BodyLimit(BaseHTTPMiddleware):
    """Refuse request bodies over MAX_BODY before anything parses them."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return errors.error(413, "too_large", f"request bodies are limited to {MAX_BODY} bytes")
        return await call_next(request)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    metrics = Metrics()
    bot_load = BotLoad(metrics)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        writer = make_writer(settings.database_url)
        repo = RoomRepository(make_sessionmaker(engine), writer)
        service = RoomService(repo, make_broker(settings.redis_url),
                              history=settings.patch_history,
                              default_bot_delay=settings.default_bot_delay,
                              default_grace=settings.default_grace,
                              bot_budget=settings.bot_budget,
                              idle_evict=settings.room_idle_seconds)
        service.on_move = metrics.observe_move
        service.chooser = bot_load.wrap(service.chooser)
        app.state.service = service
        app.state.repo = repo
        retention = Retention(repo, service, metrics, days=settings.retention_days,
                              interval=settings.retention_interval)
        await service.start()
        retention.start()
        try:
            yield
        finally:
            await retention.stop()
            await service.stop()
            if writer is not None:
                writer.close()
            await engine.dispose()

    app = FastAPI(title="Krypkasino Online", version="0.1.0", lifespan=lifespan,
                  description="Rooms, seats and deal records over HTTP; play over the "
                              "WebSocket at /ws/rooms/{room_id} (see docs/protocol.md).")
    app.state.settings = settings
    app.state.metrics = metrics
    app.state.bot_load = bot_load
    app.add_middleware(BodyLimit)
    errors.install(app)
    app.include_router(rooms.router)
    app.include_router(ws.router)
    admin.install(app, AdminGate(settings.admin_token_hash, metrics))

    @app.get("/healthz", tags=["ops"])
    async def healthz(request: Request) -> JSONResponse:
        """200 when the server and its database answer."""
        try:
            await request.app.state.repo.ping()
        except Exception as exc:
            return errors.error(503, "unavailable", f"database: {type(exc).__name__}")
        return JSONResponse({"status": "ok"})

    @app.get("/metrics", tags=["ops"], include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        service: RoomService = request.app.state.service
        for status in ("waiting", "playing", "finished"):
            metrics.rooms.labels(status).set(
                sum(1 for rt in service.rooms.values() if rt.state.status == status))
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def index() -> Any:
        page = STATIC / "index.html"
        return FileResponse(page) if page.is_file() else HTMLResponse(PLACEHOLDER)

    app.add_api_route("/", index, include_in_schema=False)
    app.add_api_route("/r/{room}", lambda room: index(), include_in_schema=False)
    return app
