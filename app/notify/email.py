"""Email for players who prefer it (issue 32): an address given in the settings panel
and confirmed by a link, a daily digest of the games waiting for its owner, and a
one-click unsubscribe in every mail (RFC 8058).

At most one digest a day per address, whatever the number of processes: each process
looks for digests due every DIGEST_CHECK_SECONDS from DIGEST_HOUR (UTC) on, and sends
one only after claiming the (address, day) row, which only one claim can insert.  A
digest whose mail server refused it is not tried again that day (at most once wins
over at least once).  No mail goes out when nothing waits: the games are read before
the claim, so a later look that day still may send one.

Storage is the ``EmailStore`` Protocol, implemented in app/db/email.py.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Protocol
from urllib.parse import urlsplit

from app.core.loops import Sweeper

from .mail_text import time_left, words
from .mailer import Mailer, MailFailed

log = logging.getLogger("krypkasino.notify")

CONFIRM_PATH = "/notifications/email/confirm"
UNSUBSCRIBE_PATH = "/notifications/email/unsubscribe"
MAX_CONFIRMATIONS_PER_HOUR = 3
"""Confirmation mails one address may be sent in an hour, whoever asks: the server
must not become a way to fill a stranger's inbox."""
_NOT_IN_ADDRESS = r"\s\"<>(),;:\\\[\]"
"""Spaces and the characters that would let an address reach into a mail's headers."""
_ADDRESS = re.compile(
    rf"^[^@{_NOT_IN_ADDRESS}]{{1,64}}@[^@{_NOT_IN_ADDRESS}]+\.[^@.{_NOT_IN_ADDRESS}]+$"
)


class BadAddress(ValueError):
    code = "bad_address"


class TooSoon(Exception):
    """Another confirmation mail so soon is refused (429)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class StoredAddress:
    address: str
    lang: str
    created_ms: int
    confirmed_ms: int | None
    unsubscribe_token: str


@dataclass(slots=True)
class DigestTarget:
    """A confirmed address whose digest is due today, with the owners who gave it."""

    address: str
    lang: str
    unsubscribe_token: str
    owners: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class WaitingGame:
    room_id: str
    code: str
    due_ms: int


class EmailStore(Protocol):
    async def address_of(self, owner: str) -> StoredAddress | None: ...

    async def confirmations_since(self, address: str, since_ms: int) -> int:
        """Rows for ``address`` made since ``since_ms`` (confirmation mails sent)."""
        ...

    async def save_address(
        self,
        owner: str,
        address: str,
        lang: str,
        confirm_hash: str,
        unsubscribe_token: str,
        now_ms: int,
    ) -> None:
        """Keep ``address`` for ``owner``, unconfirmed (replacing any earlier one)."""
        ...

    async def confirm(self, confirm_hash: str, now_ms: int) -> StoredAddress | None: ...

    async def by_unsubscribe(self, token: str) -> StoredAddress | None: ...

    async def unsubscribe(self, token: str) -> bool:
        """Forget the token's address, under every owner that gave it."""
        ...

    async def forget(self, owner: str) -> bool: ...

    async def digest_targets(self, day: str) -> list[DigestTarget]:
        """Confirmed addresses with no digest claimed on ``day``, whose owner has not
        turned the digest off."""
        ...

    async def waiting_games(self, owners: list[str]) -> list[WaitingGame]:
        """Correspondence rooms waiting for a move of one of these owners' seats,
        soonest deadline first."""
        ...

    async def claim_digest(self, address: str, day: str, now_ms: int) -> bool:
        """True for the one claim of (address, day) that inserted the row."""
        ...


def normalized(address: str) -> str:
    """The address as kept: trimmed, its domain in lower case (BadAddress if it is not
    one: no spaces, no header characters, one @, a dotted domain)."""
    address = address.strip()
    if len(address) > 254 or not _ADDRESS.fullmatch(address):
        raise BadAddress("not an email address")
    local, _, domain = address.rpartition("@")
    return f"{local}@{domain.lower()}"


def _hash(token: str) -> str:
    return hashlib.sha256(b"krypkasino-mail:" + token.encode("ascii")).hexdigest()


class EmailNotices:
    def __init__(
        self,
        store: EmailStore,
        mailer: Mailer,
        *,
        base_url: str,
        sender: str,
        digest_hour: int = 7,
        check_seconds: float = 300.0,
        confirm_interval: float = 60.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self.mailer = mailer
        self.base_url = base_url.rstrip("/")
        self.sender = sender
        self.digest_hour = digest_hour
        self.check_seconds = check_seconds
        self.confirm_interval = confirm_interval
        self.clock = clock or time.time
        self._loop = Sweeper("digest", self.send_digests, check_seconds, log)

    @property
    def looks(self) -> int:
        """Digest looks this process has finished (``krypkasino_background_rounds``): a
        test that shows no second digest goes out waits on these, not on time."""
        return self._loop.rounds

    # --- the settings panel's side

    async def status(self, owner: str) -> StoredAddress | None:
        return await self.store.address_of(owner)

    async def register(self, owner: str, address: str, lang: str) -> None:
        """Keep ``address`` for ``owner`` and send it the confirmation link (BadAddress,
        TooSoon, MailFailed)."""
        address = normalized(address)
        now_ms = self._now_ms()
        earlier = await self.store.address_of(owner)
        wait_ms = int(self.confirm_interval * 1000)
        if earlier is not None and now_ms - earlier.created_ms < wait_ms:
            left = (earlier.created_ms + wait_ms - now_ms) // 1000 + 1
            raise TooSoon("a confirmation mail was sent a moment ago", left)
        hour_ago = now_ms - 3600 * 1000
        if await self.store.confirmations_since(address, hour_ago) >= MAX_CONFIRMATIONS_PER_HOUR:
            raise TooSoon("this address was sent enough confirmation mails this hour", 3600)
        confirm, unsubscribe = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        await self.store.save_address(owner, address, lang, _hash(confirm), unsubscribe, now_ms)
        w = words(lang)
        body = w["confirm_body"].format(link=self._link(CONFIRM_PATH, confirm))
        mail = self._message(address, w["confirm_subject"], body, unsubscribe, lang)
        await self.mailer.send(mail)

    async def forget(self, owner: str) -> bool:
        return await self.store.forget(owner)

    # --- the links' side

    async def confirm(self, token: str) -> StoredAddress | None:
        return await self.store.confirm(_hash(token), self._now_ms())

    async def unsubscribe_target(self, token: str) -> StoredAddress | None:
        return await self.store.by_unsubscribe(token)

    async def unsubscribe(self, token: str) -> bool:
        return await self.store.unsubscribe(token)

    # --- the digest

    async def send_digests(self) -> int:
        """One look for digests due now; the number sent by this process."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        if now.hour < self.digest_hour:
            return 0
        day = now.date().isoformat()
        sent = 0
        for target in await self.store.digest_targets(day):
            games = await self.store.waiting_games(target.owners)
            if not games:
                continue
            if not await self.store.claim_digest(target.address, day, self._now_ms()):
                continue
            try:
                await self.mailer.send(self._digest(target, games))
                sent += 1
            except MailFailed as exc:
                log.warning("digest not sent: %s", exc)
        return sent

    def start(self) -> None:
        self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    def _digest(self, target: DigestTarget, games: list[WaitingGame]) -> EmailMessage:
        w = words(target.lang)
        now_ms = self._now_ms()
        lines = [
            w["game_line"].format(
                code=g.code, left=time_left(g.due_ms - now_ms), link=self._url(f"/r/{g.room_id}")
            )
            for g in games
        ]
        body = "\n\n".join([w["digest_intro"], *lines])
        subject = w["digest_subject"].format(n=len(games))
        return self._message(target.address, subject, body, target.unsubscribe_token, target.lang)

    def _message(
        self, to: str, subject: str, body: str, unsubscribe: str, lang: str
    ) -> EmailMessage:
        """A mail with the one-click unsubscribe of RFC 8058 (and RFC 2369's header)."""
        link = self._link(UNSUBSCRIBE_PATH, unsubscribe)
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(self.clock(), usegmt=True)
        msg["Message-ID"] = make_msgid(domain=urlsplit(self.base_url).hostname or "localhost")
        msg["Auto-Submitted"] = "auto-generated"
        msg["Content-Language"] = lang
        msg["List-Unsubscribe"] = f"<{link}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        footer = words(lang)["footer"].format(link=link)
        msg.set_content(f"{body}\n\n-- \n{footer}\n")
        return msg

    def _link(self, path: str, token: str) -> str:
        return self._url(f"{path}?token={token}")

    def _url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)
