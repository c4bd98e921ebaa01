"""What comes in and what goes out over HTTP, as pydantic models (validated, size-bounded).

The WebSocket's messages are in ``app/wire/``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    create_model,
    model_validator,
)

from app.bots import BotLevel
from app.engine.rules import MAX_PLAYERS, MIN_PLAYERS, RULE_OPTIONS, RuleValues
from app.wire import Name
from app.wire.view import Pace, TakebackMode


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _rules_model() -> type[BaseModel]:
    """The rules body, field by field from the engine's catalogue (app/engine/rules.py).

    Names, types, defaults and ranges are the catalogue's, so the API cannot
    drift from the engine; what concerns several options at once (V8's two
    lengths, the player counts of V1, V2, V7) the engine checks on creation.
    """
    fields: dict[str, Any] = {}  # create_model's own type: a type and a Field() each
    for option in RULE_OPTIONS:
        if option.type == "boolean":
            fields[option.name] = (bool, Field(default=option.default, description=option.label))
        else:
            fields[option.name] = (
                int | None,
                Field(
                    default=option.default,
                    ge=option.minimum,
                    le=option.maximum,
                    description=option.label,
                ),
            )
    return create_model("Rules", __base__=Strict, **fields)


Rules = _rules_model()


PlayerKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{22,64}$")]
"""A browser's player key (app/players/players.py): base64url, at least 128 bits."""


class CreateRoom(Strict):
    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)
    name: Name
    rules: Rules = Field(default_factory=Rules)  # type: ignore[valid-type]
    bots: int = Field(default=0, ge=0, le=5)
    bot_level: BotLevel = "greedy"
    bot_delay: float | None = Field(default=None, ge=0, le=10)
    turn_clock: float | None = Field(default=None, ge=1, le=600)
    grace: float | None = Field(default=None, ge=0, le=3600)
    deal_pause: float | None = Field(default=None, ge=0, le=600)
    """Seconds the room waits between deals for everyone to press Continue (0: none)."""
    time_bank: float | None = Field(default=None, ge=10, le=7200)
    time_increment: float = Field(default=0, ge=0, le=120)
    """A Fischer clock: seconds per player for the match, plus this after each move."""
    public: bool = False
    """List the room in the lobby (GET /api/rooms/public)."""
    club_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{1,32}$")] | None = None
    """A club-only room (issue 49): only members of this club take its seats."""
    spectator_chat: bool = True
    """Players see spectators' chat during play (the host may change it later)."""
    takeback: TakebackMode = "always"
    """One person against bots may take back their last play: always (the default since
    issue 47: the bots' replies are undone with it), until the next bot has played, or
    never ("off"); no effect in a room of two or more people, nor in a rated one."""
    hints: bool = True
    """The "tabbe på 9" call (``sweep_call`` in the view) for everyone in the room; false:
    for nobody (issue 31)."""
    player: PlayerKey | None = None
    """The creator's player key: the seat is listed in its "My games" (only a hash is kept)."""
    rated: bool = False
    """Finished matches update the players' ratings (issue 34): the creator must be signed
    in, and every other seat is a bot or a signed-in person (403
    ``rated_account_required``); partnership is not rated (422 ``rated_teams``)."""

    pace: Literal["live", "correspondence"] = "live"
    """``correspondence``: played over days, each move due within ``days_per_move``
    (issue 32); no turn clock, no time bank, no pause between deals."""
    days_per_move: Literal[1, 2, 3, 5, 7] | None = None
    """Days per move of a correspondence room (3 when not given); not with ``live``."""

    @model_validator(mode="after")
    def _one_clock(self) -> CreateRoom:
        if self.time_bank is not None and self.turn_clock is not None:
            raise ValueError("choose a turn clock or a time bank, not both")
        if self.pace == "live" and self.days_per_move is not None:
            raise ValueError("days_per_move is for correspondence rooms")
        if self.pace == "correspondence" and (
            self.turn_clock is not None or self.time_bank is not None
        ):
            raise ValueError("a correspondence room has no turn clock or time bank")
        if self.time_increment and self.time_bank is None:
            raise ValueError("time_increment needs a time_bank")
        return self


class RoomCreated(BaseModel):
    room_id: str
    code: str
    seat: int
    token: str


class JoinRoom(Strict):
    name: Name
    player: PlayerKey | None = None
    """The player's key, as for CreateRoom."""


class SeatTaken(BaseModel):
    seat: int
    token: str


class ErrorBody(BaseModel):
    code: str
    message: str


def refusals(by_status: Mapping[int, str | None]) -> dict[int | str, dict[str, Any]]:
    """A route's refusals as FastAPI's ``responses=`` wants them (its own parameter's
    type): each status answers an ``ErrorBody``, described by its text (None: none)."""
    return {
        status: {"model": ErrorBody} if text is None else {"model": ErrorBody, "description": text}
        for status, text in by_status.items()
    }


class SeatSummary(BaseModel):
    seat: int
    name: str | None
    bot: bool
    """A built-in bot's seat (from the room's creation)."""
    outside_bot: bool
    """Taken by a bot account (issue 51): a program playing over the network."""
    connected: bool


class Closed(BaseModel):
    reason: str
    at: str | None
    """When (ISO 8601, UTC) an operator closed the room."""


Seconds = int | float
"""A duration as the room's options keep it: a whole number stays one in the answer
(``float`` alone would turn a stored 60 into 60.0)."""


class RoomOptionsBody(BaseModel):
    """The room's settings that are not rules (app/wire/view.py ``RoomOptionsView``)."""

    bot_level: str
    bot_delay: Seconds
    turn_clock: Seconds | None
    grace: Seconds
    deal_pause: Seconds
    time_bank: Seconds | None
    time_increment: Seconds
    public: bool
    spectator_chat: bool
    takeback: TakebackMode
    hints: bool
    rated: bool
    pace: Pace
    days_per_move: int | None
    """A correspondence room's days per move; null in a live room."""
    challenge: bool
    """A challenge room, the deal of the day (issue 32)."""


class RoomSummary(BaseModel):
    room_id: str
    code: str
    status: Literal["waiting", "playing", "finished"]
    players: int
    seats: list[SeatSummary]
    rules: RuleValues
    options: RoomOptionsBody
    deal_no: int
    deals_total: int | None
    cumulative: list[int]
    match_no: int
    closed: Closed | None = None
    """Set once an operator closed the room (it is then ``finished`` for good)."""


class CodeLookup(BaseModel):
    room_id: str


class Credentials(Strict):
    """POST /api/auth/register and /api/auth/login (the rules of a name and a password
    are app/accounts/names.py's: 422 ``bad_username`` or ``weak_password``)."""

    username: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=1024)]


class RatingFigures(BaseModel):
    """A rating at one player count (app/ratings/ratings.py ``entries_json``)."""

    rating: float
    """The conservative rating the leaderboard ranks by: mu - 3 sigma."""
    mu: float
    """The number shown (docs/ratings.md, "What people are shown")."""
    sigma: float
    provisional: bool
    """Still settling: shown with a "?" mark."""
    matches: int


class Me(BaseModel):
    """The signed-in person (GET /api/me, and the answer of register and login)."""

    username: str
    created_ms: int
    """Unix ms when the account was made."""
    ratings: dict[str, RatingFigures] = Field(default_factory=dict)
    """Ratings per player count, once rated play exists (keys: "2".."6")."""
    csrf: str
    """The value to send as X-CSRF-Token with every request that changes something
    (also in the readable ``kk_csrf`` cookie)."""
    password_login: bool
    """Whether this server signs in with passwords (false: only its identity provider)."""


class SessionBody(BaseModel):
    """GET /api/session: who this browser is signed in as, without a failure when nobody is
    (a page asks on every load; a 401 there is logged by browsers as a failed request)."""

    account: Me | None
    """The signed-in person, as GET /api/me answers; null when signed out."""


class SignedInBody(Me):
    seats_moved: int
    """Seats of the browser's player key that became the account's with this sign-in."""


class AuthOptions(BaseModel):
    """GET /api/auth/options: how this server signs people in (for the sign-in panel)."""

    access: Literal["open", "accounts", "members"]
    password_login: bool
    providers: list[dict[str, str]] = Field(default_factory=list)
    """External sign-in providers (OpenID Connect), each ``{"name", "login_url"}``."""


class KeysTaken(BaseModel):
    """POST /api/me/keys: the seats of the browser's player keys that moved to the account."""

    seats_moved: int


class SignedOut(BaseModel):
    sessions_ended: int
