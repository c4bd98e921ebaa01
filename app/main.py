"""The FastAPI application: wiring of settings, database, broker, room service and routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app import __version__, features, web
from app.accounts.access_tokens import AccessTokens
from app.accounts.service import Account, Accounts
from app.api import (
    accounts,
    admin,
    bot_challenges,
    bot_stream,
    clubs,
    coach,
    daily,
    errors,
    history,
    ladder,
    limits,
    notifications,
    oidc,
    pairing,
    players,
    protocol,
    push,
    ratings,
    rooms,
    rules,
    social,
    tokens,
    tournament_ws,
    ws,
)
from app.api import tournaments as tournaments_api
from app.api.deps import ServicesDep
from app.api.health import readiness
from app.api.schemas import ErrorBody
from app.api.sealed_boards import SealedBoards
from app.api.session_gate import SessionGate
from app.botplay.service import BotPlay
from app.broker import make_broker
from app.clubs.config import build_clubs
from app.config import Settings, get_settings
from app.core.errors import ErrorCode, ServiceError
from app.db.access_tokens import AccessTokenRows
from app.db.bot_play import BotPlayRows
from app.db.clubs import ClubRows
from app.db.facts import DatabaseFacts
from app.db.ladder import LadderRows
from app.db.ladder_bots import LadderBots
from app.db.outage import is_outage
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.ladder.config import build_ladder
from app.ladder.rooms import LadderRoomError, OutsideBot, ServerRooms
from app.limits.admin import AdminGate
from app.limits.body import BodyLimit
from app.limits.files import default_socket_cap
from app.limits.http import HttpLimits
from app.limits.rate import KeyedRateLimit
from app.limits.sockets import SocketGuard
from app.metrics import (
    BackgroundCollector,
    CoachCollector,
    Metrics,
    ServiceCollector,
    SqliteCollector,
)
from app.metrics_access import MetricsAccess
from app.ops.botload import BotLoad
from app.ops.expiry import WaitingRoomExpiry
from app.ops.retention import Retention
from app.resources import static_dir
from app.rooms.service import RoomService
from app.rooms.settings import from_config as service_settings
from app.services import Edge, Services
from app.tournament_wiring import build_tournaments, subscribe_tournaments
from app.web.security import SecurityHeaders


def ladder_rooms(
    repo: RoomRepository,
    service: RoomService,
    accounts: Accounts,
    botplay: BotPlay,
    turn_s: float,
) -> ServerRooms:
    """The rooms an outside bot's ladder packs are played in (app/ladder/rooms.py): made
    by the room service, each bot's seat linked to its account as a seat given by name
    is, its streams woken."""

    async def seat(bot: OutsideBot, room_id: str, seat_no: int, token: str) -> None:
        account = Account(bot.account_id, bot.username, 0, 1)
        if not await accounts.link_seat(account, room_id, seat_no, token):
            # unlinked, the seat's stream would never hear of the game: fail the pack now
            raise LadderRoomError(f"could not give seat {seat_no} of {room_id} to {bot.username}")
        botplay.wake(bot.account_id)

    async def closed(room_id: str) -> bool:
        try:
            return bool((await service.summary(room_id))["closed"])
        except ServiceError as exc:
            if exc.code == ErrorCode.NOT_FOUND:
                return True
            raise

    return ServerRooms(
        LadderBots(repo), service.execute, service.deal_record, seat, closed, turn_s=turn_s
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    metrics = Metrics()
    bot_load = BotLoad(metrics)
    edge = Edge(
        settings=settings,
        metrics=metrics,
        bot_load=bot_load,
        sockets=SocketGuard(
            settings.ws_per_ip,
            settings.ws_per_room,
            settings.bad_token_per_minute,
            total=default_socket_cap() if settings.ws_max is None else settings.ws_max,
        ),
        http_limits=HttpLimits.from_settings(settings),
        public_list_limit=KeyedRateLimit(settings.public_list_per_minute),
        admin_gate=AdminGate(settings.admin_token_hash, metrics.refused, settings.ipv6_prefix),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url, timeout=settings.db_timeout)
        writer = make_writer(settings.database_url)
        repo = RoomRepository(make_sessionmaker(engine), writer)
        timing = service_settings(settings)
        service = RoomService(repo, make_broker(settings.redis_url, timing.presence_fresh), timing)
        service.on_move = metrics.observe_move
        collector = ServiceCollector(service)
        metrics.registry.register(collector)
        sqlite = SqliteCollector(writer.loop_writes) if writer and writer.loop_writes else None
        if sqlite is not None:
            metrics.registry.register(sqlite)
        service.chooser = bot_load.wrap(service.chooser)
        bot_load.strong_workers = service.bots.workers
        built = features.build(service, repo, settings)
        origin = service.broker.origin
        coach_metrics = CoachCollector(built.coach_runner, built.background)
        metrics.registry.register(coach_metrics)
        web_push = built.push
        email = features.build_email(repo, settings)
        metrics.registry.register(BackgroundCollector(built.ratings, email))
        tokens = AccessTokens(AccessTokenRows(repo))  # issue 51
        botplay = BotPlay(BotPlayRows(repo), tokens.touch, lambda: service.closing)
        accounts = features.build_accounts(repo, settings)
        rooms = ladder_rooms(repo, service, accounts, botplay, settings.ladder_turn_seconds)
        bot_ladder = build_ladder(LadderRows(repo), built.background.run, origin, settings, rooms)
        tournaments, tournament_loop = build_tournaments(  # issue 49
            repo,
            service.execute,
            service.execute,
            accounts,
            settings.default_grace,
            settings.day_seconds,
            settings.default_bot_delay,
        )
        if built.dispatcher is not None:
            subscribe_tournaments(built.dispatcher.subscriptions, tournaments)
        app.state.services = Services(
            edge=edge,
            rooms=service,
            chat=built.chat,
            public_rooms=built.public_rooms,
            archive=built.archive,
            reviews=built.reviews,
            audience=built.audience,
            players=built.players,
            database=DatabaseFacts(repo),
            push=web_push,
            notices=features.build_notices(repo),
            email=email,
            pairing=built.pairing,
            accounts=accounts,
            tokens=tokens,
            ratings=built.ratings,
            profiles=built.profiles,
            oidc=features.oidc_flow(settings, repo),
            coach=built.coach,
            daily=built.daily,
            solo=built.solo,
            ladder=bot_ladder,
            botplay=botplay,
            clubs=build_clubs(ClubRows(repo), settings),  # issue 49
            tournaments=tournaments,
        )
        retention = Retention(
            repo,
            service,
            metrics,
            days=settings.retention_days,
            interval=settings.retention_interval,
        )
        expiry = WaitingRoomExpiry(
            service,
            settings.waiting_room_hours,
            settings.waiting_room_minutes,
            abandoned_minutes=settings.abandoned_room_minutes,
        )
        await service.start()
        built.start()
        bot_ladder.start()
        tournament_loop.start()
        retention.start()
        expiry.start()
        built.ratings.start()
        if email is not None:
            email.start()
        try:
            yield
        finally:
            botplay.stop()  # the open bot streams end (the server's stop ended them first)
            if email is not None:
                await email.stop()
            await built.ratings.stop()
            await expiry.stop()
            await retention.stop()
            await bot_ladder.stop()
            await tournament_loop.stop()
            await tournaments.feeds.close()
            await built.stop()
            await service.stop()
            if web_push is not None:
                await web_push.client.aclose()
            metrics.registry.unregister(collector)
            metrics.registry.unregister(coach_metrics)
            if sqlite is not None:
                metrics.registry.unregister(sqlite)
            if writer is not None:
                writer.close()
            await engine.dispose()

    docs = settings.api_docs
    app = FastAPI(
        title="Krypkasino Online",
        version=__version__,
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        description="Rooms, seats and deal records over HTTP; play over the "
        "WebSocket at /ws/rooms/{room_id} (see docs/protocol.md).",
    )
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(
        MetricsAccess,
        port=settings.metrics_port,
        token=settings.metrics_token,
        public=settings.metrics_public,
    )
    app.add_middleware(SealedBoards)  # issue 49: a duplicate board's rooms, until played
    app.add_middleware(SessionGate, access=settings.access)
    app.add_middleware(SecurityHeaders)  # added last, so outermost: on every response
    errors.install(app, is_outage)
    limits.install(app)
    app.include_router(social.router)  # before rooms: /api/rooms/public is no room id
    app.include_router(rooms.router)
    app.include_router(bot_stream.router)  # issue 51
    app.include_router(bot_challenges.router)
    app.include_router(rules.router)
    app.include_router(history.router)
    app.include_router(coach.router)
    app.include_router(daily.router)
    app.include_router(ladder.router)
    app.include_router(ladder.admin_router)
    app.include_router(players.router)
    app.include_router(push.router)
    app.include_router(notifications.router)
    app.include_router(notifications.pages)
    app.include_router(pairing.router)
    accounts.install(app)
    tokens.install(app)
    ratings.install(app)
    clubs.install(app)  # issue 49
    app.include_router(tournaments_api.router)
    app.include_router(tournament_ws.router)
    app.include_router(ws.router)
    app.include_router(protocol.router)
    app.include_router(oidc.router)
    admin.install(app)

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> JSONResponse:
        """Liveness: 200 with the server's version while the process runs and answers
        (whatever its database or Redis do; see /readyz)."""
        return JSONResponse({"status": "ok", "version": __version__})

    @app.get("/readyz", tags=["ops"], responses={503: {"model": ErrorBody}})
    async def readyz(services: ServicesDep) -> JSONResponse:
        """Readiness: 200 when this process can serve games: its database answers and,
        with several processes, its Redis subscriber is connected; 503 otherwise."""
        return await readiness(services.database, services.rooms.broker)

    @app.get("/metrics", tags=["ops"], include_in_schema=False)
    async def prometheus(services: ServicesDep) -> Response:
        service = services.rooms
        for status in ("waiting", "playing", "finished"):
            metrics.rooms.labels(status).set(
                sum(1 for rt in service.rooms.values() if rt.state.status == status)
            )
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    web.install(app, static_dir(), __version__)
    return app
