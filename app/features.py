"""Building what stands beside play: room history and shared reviews, players who
change devices (issue #11); chat, reactions and the public room list (issue #12);
ratings and profiles (issue #34: rated on every finished match, app/ratings);
quick pairing (issue #34); the deal of the day and "Play this deal yourself" (issue #32).

``app/main.py`` calls ``build`` once the room service exists; each feature gets what
it asks of the rooms as a small Protocol of its own, which the room service implements
(the chat's ``ChatRooms``, the lobby's ``Spectators``, the ratings' ``latest_match``:
no feature imports the service or the rooms' internals, tests/test_architecture.py),
and its own database rows; the broker kinds it answers are registered with the rooms
here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from app.accounts.attempts import AttemptLimits
from app.accounts.oidc import OidcConfig, OidcFlow
from app.accounts.service import Accounts, AccountSettings
from app.coach.rating import Settings as CoachSettings
from app.coach.runner import Runner, RunnerSettings
from app.coach.service import Coach
from app.coach.whatif import CoachEvaluator
from app.config import Settings
from app.core.processes import BackgroundPool
from app.core.tokens import hash_token
from app.daily.service import Daily, MakeRoom
from app.daily.solo import Solo
from app.db.accounts import AccountRows
from app.db.analyses import AnalysisRows
from app.db.daily import DailyRows
from app.db.email import EmailRows
from app.db.history import HistoryReads
from app.db.notices import NoticeRows
from app.db.oidc import PendingRows
from app.db.pairing import PairingRows
from app.db.players import PlayerRows
from app.db.profiles import ProfileReads
from app.db.push import PushRows
from app.db.ratings import RatingRows
from app.db.repository import RoomRepository
from app.db.social import ChatRows, PublicRoomRows
from app.engine.rules import RuleSet
from app.notify.egress import PushClient
from app.notify.email import EmailNotices
from app.notify.mailer import Mailer, SmtpSettings
from app.notify.service import PushLimits, PushService
from app.notify.settings import NoticeChoices
from app.notify.turns import PushNotices
from app.outbox.dispatcher import Dispatcher, DispatchSettings
from app.pairing.queue import Pairing, Ticket
from app.pairing.seekers import Seeker, account_of
from app.players.players import Players
from app.ratings.profiles import Profiles
from app.ratings.ratings import Ratings
from app.realtime.audience import MOVED_MESSAGES, Audience
from app.review import review
from app.review.archive import Archive
from app.review.review import Reviews
from app.rooms.domain.commands import NewRoom
from app.rooms.domain.options import DealPreset, RoomOptions
from app.rooms.domain.results import RoomCreated
from app.rooms.service import RoomService
from app.rooms.turn_notice import TurnWatch
from app.rooms.unit import BrokerHandler
from app.social import chat as chat_kinds
from app.social.chat import Chat
from app.social.public_rooms import PublicRooms
from app.subscribers import subscriptions


def seat_moved_kind(reason: str) -> str:
    """The broker message kind telling the processes a seat moved (seq: the seat)."""
    return f"seat_{reason}"


class AccountRatings:
    """Quick pairing's ``RatingSource`` from the ratings: a signed-in seeker's rating
    (the model's mu) at that player count; None for a player key or a newcomer."""

    def __init__(self, ratings: Ratings) -> None:
        self.ratings = ratings

    async def rating(self, seeker: Seeker, players: int) -> float | None:
        if seeker.account_id is None:
            return None
        entries = await self.ratings.ratings_of(seeker.account_id)
        return next((e.skill.mu for e in entries if e.players == players), None)


@dataclass(slots=True, eq=False)
class Features:
    audience: Audience
    archive: Archive
    reviews: Reviews
    players: Players
    chat: Chat
    public_rooms: PublicRooms
    ratings: Ratings
    profiles: Profiles
    pairing: Pairing
    coach: Coach
    coach_runner: Runner
    background: BackgroundPool
    daily: Daily
    solo: Solo
    dispatcher: Dispatcher | None
    """Hands the rooms' domain events to the features above (None: OUTBOX_DISPATCH off)."""
    push: PushService | None
    """Web Push (None: PUSH off), told of turns and deadlines by the outbox."""

    def start(self) -> None:
        """Start what runs by itself (the outbox, the coach's analyses); after the
        rooms started."""
        if self.dispatcher is not None:
            self.dispatcher.start()
        self.coach_runner.start()

    async def stop(self) -> None:
        """Stop it again; before the rooms stop."""
        if self.dispatcher is not None:
            await self.dispatcher.stop()
        await self.coach_runner.stop()
        self.background.close()


def build(service: RoomService, repo: RoomRepository, settings: Settings | None = None) -> Features:
    """The features over ``service``'s rooms, with their broker kinds registered."""
    settings = settings or Settings()
    audience = Audience()
    archive = Archive(HistoryReads(repo))
    unit = service.unit

    def seat_name(room_id: str, seat: int) -> str | None:
        rt = unit.rooms.get(room_id)
        if rt is None or not 0 <= seat < rt.state.players:
            return None
        return rt.state.seats[seat].name

    # What-ifs in a review show each move's expected points by the coach's own method
    # (app/coach/whatif.py: the analysis's worlds and playouts, a fixed sample count).
    # A deal of the day's room is its player's until the day is over (issue 46): no
    # spectator's review shows its hands (``daily`` is made below; looked up when asked).
    async def private(room_id: str) -> bool:
        return await daily.private_now(room_id)

    reviews = Reviews(
        unit.broker, audience, archive, seat_name, evaluator=CoachEvaluator(), private=private
    )

    async def seat_moved(room_id: str, seat: int, reason: str) -> None:
        """Tell this process's connections of the seat now, the others' via the broker."""
        audience.kick(room_id, seat, reason)
        # publish logs its own failures; the seat's token is changed anyway
        await unit.broker.publish(room_id, seat, seat_moved_kind(reason))

    def kicker(reason: str) -> BrokerHandler:
        async def kick(room_id: str, seat: int) -> None:
            audience.kick(room_id, seat, reason)

        return kick

    chat = Chat(service, audience, ChatRows(repo))
    unit.on_broker_kind[review.KIND] = reviews.on_broker
    unit.on_broker_kind[chat_kinds.KIND] = chat.on_broker
    unit.on_broker_kind[chat_kinds.REACTION_KIND] = chat.on_reaction
    for reason in MOVED_MESSAGES:
        unit.on_broker_kind[seat_moved_kind(reason)] = kicker(reason)
    ratings = Ratings(
        RatingRows(repo),
        service.latest_match,
        min_matches=settings.leaderboard_min_matches,
        leaderboard_size=settings.leaderboard_size,
        catch_up_seconds=settings.ratings_catch_up,
        shared_days=settings.ratings_shared_days,
    )

    player_rows = PlayerRows(repo)

    account_rows = AccountRows(repo)

    async def seat_owner(room_id: str, seat: int, token: str, ticket: Ticket) -> None:
        """A seat pairing gave is its account's, and in its player key's "My games"
        (best effort, as for any seat taken: the seat stands either way)."""
        held = hash_token(token)
        account_id = account_of(ticket.identity)
        if account_id is not None:
            await service.safe(account_rows.link_seat(room_id, seat, held, account_id))
        if ticket.player_hash is not None:
            await service.safe(player_rows.link_seat(room_id, seat, held, ticket.player_hash))

    def table_options() -> RoomOptions:
        """A paired table: the server's defaults, private (strangers are not listed)."""
        s = service.settings
        return RoomOptions(
            bot_delay=s.default_bot_delay, grace=s.default_grace, deal_pause=s.default_deal_pause
        )

    background = BackgroundPool(service.bots, settings.coach_workers, settings.coach_priority)
    analyses = AnalysisRows(repo)
    runner = Runner(
        analyses,
        background.run,
        service.broker.origin,
        CoachSettings(samples=settings.coach_samples, max_samples=4 * settings.coach_samples),
        RunnerSettings(lease_s=settings.coach_lease_seconds),
    )
    coach = Coach(analyses, runner.poke, settings.coach_queue, settings.coach_on_deal_end)
    make_room = solo_rooms(service)
    daily_rows = DailyRows(repo)
    daily = Daily(
        daily_rows,
        make_room,
        players=daily_player_counts(settings.daily_players),
        shift_days=settings.daily_day_shift,
        ranked_per_address=settings.daily_ranked_per_address,
    )

    push = build_push(repo, settings)
    notices = PushNotices(push, TurnWatch(unit)) if push is not None else None
    dispatcher = Dispatcher(
        repo,
        subscriptions(ratings, daily, coach, notices),
        service.broker.origin,
        service.doorbell,
        DispatchSettings(poll_seconds=settings.outbox_poll_seconds),
    )
    return Features(
        audience=audience,
        archive=archive,
        reviews=reviews,
        players=Players(player_rows, seat_moved),
        chat=chat,
        public_rooms=PublicRooms(service, PublicRoomRows(repo)),
        ratings=ratings,
        profiles=Profiles(ProfileReads(repo)),
        pairing=Pairing(
            PairingRows(repo),
            service,
            table_options,
            owner=seat_owner,
            ratings=AccountRatings(ratings),
        ),
        coach=coach,
        coach_runner=runner,
        background=background,
        daily=daily,
        solo=Solo(daily_rows, make_room),
        dispatcher=dispatcher if settings.outbox_dispatch else None,
        push=push,
    )


def daily_player_counts(text: str) -> tuple[int, ...]:
    """DAILY_PLAYERS ("3,4") as player counts, each 2 to 6 (R1.3)."""
    counts = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    if not counts or not all(2 <= n <= 6 for n in counts):
        raise ValueError(f"DAILY_PLAYERS must list player counts of 2 to 6, not {text!r}")
    return counts


def solo_rooms(service: RoomService) -> MakeRoom:
    """How the deal of the day and "Play this deal yourself" make a room: the person
    against strong bots in every other seat, on the preset deal; a challenge (the deal
    of the day) without take-backs."""

    async def make_room(
        players: int,
        name: str,
        rules: RuleSet,
        preset: DealPreset,
        creator: str | None,
        seat: int,
    ) -> RoomCreated:
        s = service.settings
        options = RoomOptions(
            bot_level="strong",
            bot_delay=s.default_bot_delay,
            grace=s.default_grace,
            deal_pause=s.default_deal_pause,
            takeback="off" if preset.bot_seed is not None else "always",
            preset=preset,
        )
        return await service.execute(
            NewRoom(players, name, rules, players - 1, options, creator, seat)
        )

    return make_room


def build_push(repo: RoomRepository, settings: Settings) -> PushService | None:
    """Web Push (issue 32), told of turns whose player has no page open and of near
    deadlines by the rooms' domain events (app/notify/turns.py subscribes it); None
    when the host switched it off."""
    if not settings.push:
        return None
    pem = settings.vapid_private_key
    if pem is not None and not pem.lstrip().startswith("-----BEGIN"):
        pem = Path(pem).read_text()  # a path to the PEM file
    push = PushService(
        PushRows(repo),
        PushClient(allow_local=settings.push_allow_local, timeout=10.0),
        subject=settings.vapid_subject,
        allow_local=settings.push_allow_local,
        private_pem=pem,
        limits=PushLimits.from_settings(settings),
    )
    return push


def build_notices(repo: RoomRepository) -> NoticeChoices:
    """Which events each player wants told (issue 32): read by Web Push and the digest."""
    return NoticeChoices(NoticeRows(repo))


def site_url(settings: Settings) -> str:
    """The site's address for links in mails: PUBLIC_URL, else the host and port."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    host = "localhost" if settings.host in ("0.0.0.0", "::", "") else settings.host
    return f"http://{host}:{settings.port}"


def build_email(repo: RoomRepository, settings: Settings) -> EmailNotices | None:
    """Email (issue 32): confirmation links and the daily digest through the host's
    SMTP server; None without SMTP_HOST.  Its digest loop starts with the server."""
    if settings.smtp_host is None:
        return None
    if settings.public_url is None:
        logging.getLogger("krypkasino.notify").warning(
            "SMTP_HOST is set but PUBLIC_URL is not: the links in mails name %s",
            site_url(settings),
        )
    mailer = Mailer(
        SmtpSettings(
            host=settings.smtp_host,
            port=settings.smtp_port,
            user=settings.smtp_user,
            password=settings.smtp_password,
            sender=settings.smtp_from,
            starttls=settings.smtp_starttls,
            ssl=settings.smtp_ssl,
            timeout=settings.smtp_timeout,
        )
    )
    return EmailNotices(
        EmailRows(repo),
        mailer,
        base_url=site_url(settings),
        sender=settings.smtp_from,
        digest_hour=settings.digest_hour,
        check_seconds=settings.digest_check_seconds,
        confirm_interval=settings.mail_confirm_interval,
    )


def build_accounts(repo: RoomRepository, settings: Settings) -> Accounts:
    """Optional accounts (issue 34) on the repository's database, with the host's settings."""
    return Accounts(
        AccountRows(repo),
        AccountSettings(
            session_days=settings.session_days,
            password_login=settings.password_login,
            limits=AttemptLimits.from_settings(settings),
        ),
    )


def oidc_flow(settings: Settings, repo: RoomRepository) -> OidcFlow | None:
    """Sign-in through the host's OpenID Connect provider, when OIDC_ISSUER is set.

    The client (and the HTTP library under authlib's client) is imported only then:
    a server without a provider never loads it."""
    if settings.oidc_issuer is None or settings.oidc_client_id is None:
        return None
    try:
        from app.accounts.oidc_client import OidcClient
    except ImportError as exc:  # authlib's client runs on httpx (or httpx2)
        raise RuntimeError(
            f"OIDC_ISSUER is set but the OpenID Connect client cannot load ({exc}): "
            "install the httpx package beside the server"
        ) from exc

    config = OidcConfig(
        issuer=settings.oidc_issuer,
        client_id=settings.oidc_client_id,
        client_secret=settings.oidc_client_secret,
        name=settings.oidc_name,
        scopes=settings.oidc_scopes,
    )
    return OidcClient(config, PendingRows(repo))
