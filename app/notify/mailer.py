"""Sending one mail through the host's SMTP server (issue 32): the standard library's
smtplib in a worker thread, so the event loop never waits on the mail server.

A connection per mail: digests go out at most once a day per address, so there is
nothing to gain from holding one open, and nothing to go stale.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    host: str
    port: int = 587
    user: str | None = None
    password: str | None = None
    sender: str = "Krypkasino <noreply@localhost>"
    starttls: bool = True
    ssl: bool = False
    timeout: float = 20.0


class MailFailed(Exception):
    """The mail server could not be reached or refused the mail."""


class Mailer:
    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self.sent = 0
        self.failed = 0

    async def send(self, message: EmailMessage) -> None:
        """Hand ``message`` to the mail server (MailFailed if it is not taken)."""
        try:
            await asyncio.to_thread(self._send, message)
        except (OSError, smtplib.SMTPException) as exc:
            self.failed += 1
            raise MailFailed(f"{type(exc).__name__}: {exc}") from exc
        self.sent += 1

    def _send(self, message: EmailMessage) -> None:
        s = self.settings
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if s.ssl:
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with smtp:
            if s.starttls and not s.ssl:
                smtp.starttls(context=context)
            if s.user is not None:
                smtp.login(s.user, s.password or "")
            smtp.send_message(message)
