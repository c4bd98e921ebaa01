"""The core WebSocket messages: joining, playing, the view and its patches, reviews.

Everything a match needs on the wire, both directions, with the encoders the server
sends them through.  A patch is the one message not encoded from a model: its
operations are serialised once per change (``encode_ops``) and joined into the
same bytes for every receiver (``patch_message``); tests/test_wire.py checks it
against the model.  The talk around the table is in app/wire/table.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic_core import to_json

from app.core.json import PatchOp as PatchOpJson
from app.wire.fields import CardCode, ClientId, Name, PlayerKey, ReviewKey
from app.wire.registry import Incoming, Outgoing, client_message, encode, server_message

# ---------------------------------------------------------- client to server


@client_message
class Hello(Incoming):
    """First and once: a seat's token (none: a spectator), and the seq of the view the
    client holds after a reconnect."""

    type: Literal["hello"]
    token: Annotated[str, StringConstraints(max_length=128)] | None = None
    last_seq: int | None = Field(default=None, ge=0)
    own: bool = False
    """Without a token: seat me if my signed-in account (the session cookie) or one of
    ``keys`` holds a seat of this room (issue 47); else I watch.  ``last_seq`` is then
    not used: the client's saved view may be a spectator's."""
    keys: list[PlayerKey] = Field(default_factory=list, max_length=4)
    """The browser's player keys (its current one first), for ``own``."""


@client_message
class Play(Incoming):
    """Play ``card``; ``take`` empty or missing: creep.  A resent ``id`` never plays twice."""

    type: Literal["play"]
    id: ClientId
    card: CardCode
    take: list[CardCode] | None = Field(default=None, max_length=104)


@client_message
class Rematch(Incoming):
    """A seated player offers a new match once the room is finished, or accepts the
    offer open (issue 33)."""

    type: Literal["rematch"]


@client_message
class RematchDecline(Incoming):
    """A seated player declines the open rematch offer (its offerer: withdraws it)."""

    type: Literal["rematch_decline"]


@client_message
class Ping(Incoming):
    type: Literal["ping"]


@client_message
class ReviewStart(Incoming):
    """Start a shared review of a finished deal (app/review/review.py)."""

    type: Literal["review_start"]
    match_no: int = Field(ge=1, le=100000)
    deal_no: int = Field(ge=1, le=1000)
    key: ReviewKey
    name: Name | None = None


@client_message
class ReviewJoin(Incoming):
    type: Literal["review_join"]
    key: ReviewKey
    name: Name | None = None


@client_message
class ReviewStep(Incoming):
    type: Literal["review_step"]
    step: int = Field(ge=0, le=100000)


@client_message
class ReviewPass(Incoming):
    type: Literal["review_pass"]
    to: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]


@client_message
class ReviewLeave(Incoming):
    type: Literal["review_leave"]


@client_message
class ReviewBranch(Incoming):
    """The driver opens a what-if at the step shown (app/review/whatif.py, issue 31)."""

    type: Literal["review_branch"]


@client_message
class ReviewBranchPlay(Incoming):
    """The driver plays a move in the what-if (checked by the engine; ``take`` empty or
    missing: creep)."""

    type: Literal["review_branch_play"]
    card: CardCode
    take: list[CardCode] | None = Field(default=None, max_length=104)


@client_message
class ReviewBranchBack(Incoming):
    """The driver takes the what-if's last move back."""

    type: Literal["review_branch_back"]


@client_message
class ReviewReturn(Incoming):
    """The driver leaves the what-if: back to the real line, where it branched off."""

    type: Literal["review_return"]


REVIEW_MESSAGES = (
    ReviewStart,
    ReviewJoin,
    ReviewStep,
    ReviewPass,
    ReviewLeave,
    ReviewBranch,
    ReviewBranchPlay,
    ReviewBranchBack,
    ReviewReturn,
)


# ---------------------------------------------------------- server to client


@server_message
class Welcome(Outgoing):
    """The answer to hello, before anything else."""

    type: Literal["welcome"] = "welcome"
    you: int | None
    seq: int


@server_message
class Snapshot(Outgoing):
    """The whole view of this connection (docs/protocol.md, "The view")."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    view: Mapping[str, object]
    """A ``View`` (app/wire/view.py): its schema is written from that ``TypedDict``
    (app/wire/schema.py), which pydantic cannot read on Python 3.11."""


class PatchOp(BaseModel):
    """One RFC 6902 operation (the server sends add, remove and replace)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    op: Literal["add", "remove", "replace", "move", "copy", "test"]
    path: str
    value: Any = None
    from_: str | None = Field(default=None, alias="from")


@server_message
class Patch(Outgoing):
    """An RFC 6902 patch turning the view of ``seq`` - 1 into that of ``seq``."""

    type: Literal["patch"] = "patch"
    seq: int
    ops: list[PatchOp]


@server_message
class Presence(Outgoing):
    """Who is online, by seat.  Never advances seq."""

    type: Literal["presence"] = "presence"
    connected: list[bool]
    watching: int = 0
    """How many spectators the room has (issue 12: players see who is watching)."""


@server_message
class Error(Outgoing):
    """A refusal: nothing changed.  ``reason`` only with the code ``seat_moved``."""

    type: Literal["error"] = "error"
    id: str | None
    code: str
    message: str
    reason: Literal["transfer", "reclaim"] | None = None
    """Sent only when set (``error_message`` leaves it out otherwise)."""


@server_message
class Ack(Outgoing):
    """A play is stored (or was already, for a resent id); its patch comes too."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int
    duplicate: bool


@server_message
class Pong(Outgoing):
    type: Literal["pong"] = "pong"


@server_message
class Reconnect(Outgoing):
    """The server is shutting down: connect again."""

    type: Literal["reconnect"] = "reconnect"


class ReviewParticipant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str | None
    seat: int | None


class BranchMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str
    take: list[str]


class BranchLegal(BranchMove):
    """A legal move of the what-if's position and what it does, as the view's ``legal``,
    with ``expected``: the points its seat is expected to end the deal with."""

    kind: Literal["creep", "capture", "sweep", "double_sweep"]
    points: int
    sweep: int
    expected: float


class WhatIf(BaseModel):
    """The driver's branch off the real deal: ``moves`` played from step ``at``."""

    model_config = ConfigDict(extra="forbid")
    at: int
    moves: list[BranchMove]
    position: Mapping[str, object]
    """The position now, as the replay's positions (every hand: the deal is over): a
    ``Position`` (app/engine/view_types.py), whose schema app/wire/schema.py writes."""
    legal: list[BranchLegal]


class SharedReview(BaseModel):
    """A room's shared review as clients see it (app/review/review.py)."""

    model_config = ConfigDict(extra="forbid")
    id: str
    match_no: int
    deal_no: int
    steps: int
    step: int
    driver: str
    participants: list[ReviewParticipant]
    branch: WhatIf | None = None


@server_message
class Review(Outgoing):
    """The room's shared review as it now stands; ``me`` is this connection's id in it."""

    type: Literal["review"] = "review"
    version: int
    review: SharedReview | None
    me: str | None


# ---------------------------------------------------------------- encoders


def welcome_message(you: int | None, seq: int) -> str:
    return encode(Welcome.model_construct(you=you, seq=seq))


def snapshot_message(seq: int, view: Mapping[str, object]) -> str:
    return encode(Snapshot.model_construct(seq=seq, view=view))


def presence_message(connected: list[bool], watching: int = 0) -> str:
    return encode(Presence.model_construct(connected=connected, watching=watching))


def error_message(
    code: str, message: str, msg_id: str | None = None, reason: str | None = None
) -> str:
    error = Error.model_construct(id=msg_id, code=code, message=message, reason=reason)
    return error.model_dump_json(exclude={"reason"} if reason is None else None)


def ack_message(msg_id: str, seq: int, duplicate: bool) -> str:
    """An ``Ack``, written out directly: one goes to the mover of every move."""
    flag = "true" if duplicate else "false"
    return f'{{"type":"ack","id":{to_json(msg_id).decode()},"seq":{seq},"duplicate":{flag}}}'


def review_message(version: int, review: Mapping[str, object] | None, me: str | None) -> str:
    """``review`` as ``app/review/participants.public`` gives it."""
    shared = SharedReview.model_validate(review) if review is not None else None
    return encode(Review.model_construct(version=version, review=shared, me=me))


PONG = encode(Pong())
RECONNECT = encode(Reconnect())


def encode_ops(ops: list[PatchOpJson]) -> str:
    """RFC 6902 operations as the inside of a JSON array (no brackets), so that the
    public part of a change, serialised once, can be joined with each audience's own.

    pydantic-core's encoder writes the same compact JSON as ``json.dumps`` with
    these options, four times as fast (this runs for every audience of every
    change)."""
    return to_json(ops).decode()[1:-1]


class SharedStart(str):
    """The beginning every audience's patch of a change shares (the seq and the
    public operations), with what the socket layer made of it: its bytes, and its
    compression per deflate window (``app/realtime/frame_cache.build_frame``), each made once
    for all the audiences."""

    data: bytes
    deflated: dict[int, bytes]


class PatchText(str):
    """An encoded patch that knows which beginning it shares with the other
    audiences of its change (``shared``), so that the socket layer can compress
    that part once for all of them (``app/realtime/frame_cache.build_frame``)."""

    shared: SharedStart
    frames: dict[int, bytes]
    """This message's frame per socket framing, built by the first socket that sends
    it (``app/realtime/socket_protocol.DirectSend``); every spectator gets the same object."""


def patch_message(seq: int, public_ops: str, own_ops: str = "") -> PatchText:
    """A ``Patch`` from ``encode_ops`` fragments: the public operations, serialised
    once per change, then an audience's own.  Every audience's message begins with
    the very same string object (``PatchText.shared``)."""
    return patch_text(patch_prefix(seq, public_ops), own_ops)


def patch_prefix(seq: int, public_ops: str) -> SharedStart:
    """The beginning that every audience's patch of a change shares."""
    prefix = SharedStart(f'{{"type":"patch","seq":{seq},"ops":[{public_ops}')
    prefix.data = prefix.encode()
    prefix.deflated = {}
    return prefix


def patch_text(prefix: SharedStart, own_ops: str) -> PatchText:
    """``prefix`` (from ``patch_prefix``) completed with one audience's operations."""
    joint = "" if prefix.endswith("[") else ","
    rest = f"{joint}{own_ops}]}}" if own_ops else "]}"
    text = PatchText(prefix + rest)
    text.shared = prefix
    text.frames = {}
    return text


def is_snapshot(text: str) -> bool:
    """Whether an encoded message is a snapshot (``type`` is encoded first)."""
    return text.startswith('{"type":"snapshot"')
