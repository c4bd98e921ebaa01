"""Tables of the bot event stream and the challenges between bots (issue 51,
app/botplay): which streams are open (so that every process knows which bots are
online and how many streams each holds), and each challenge until it is answered or
expires.  ``models.py`` imports this module, so that the migrations find them."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.engine.rules import RuleValues

from .base import Base


class BotStreamRow(Base):
    """An open ``GET /api/bot/stream``: renewed every few seconds by the process that
    serves it, deleted when it ends; a row not renewed for a while (its process died)
    counts for nothing."""

    __tablename__ = "bot_streams"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    token_id: Mapped[str] = mapped_column(String(32))
    opened_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    """Its latest renewal: the bot is online while one of its streams was seen lately."""


class BotChallenge(Base):
    """A bot's challenge to another bot: ``open`` until accepted (``room_id`` set),
    declined, withdrawn or past ``expires_ms``."""

    __tablename__ = "bot_challenges"
    __table_args__ = (
        Index("ix_bot_challenges_to", "to_account", "state"),
        Index("ix_bot_challenges_from", "from_account", "state"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    from_account: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    to_account: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[RuleValues] = mapped_column(JSON)
    bots: Mapped[int] = mapped_column(Integer)
    """Built-in bots that take the seats beyond the two challengers'."""
    made_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[str] = mapped_column(String(16))
    """``open``, ``accepted``, ``declined`` or ``withdrawn``."""
    room_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The room an accepted challenge made."""
