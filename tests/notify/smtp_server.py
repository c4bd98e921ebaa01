"""A real local SMTP server for the tests: aiosmtpd's Controller on a free port in the
test process, keeping every mail it is handed (parsed as a mail client would).

The server under test talks to it over TCP with smtplib like to any mail server
(plain SMTP on 127.0.0.1: SMTP_STARTTLS=false).
"""

from __future__ import annotations

import email
import email.policy
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.server.process import free_port


@dataclass
class Mail:
    sender: str
    recipients: list[str]
    message: EmailMessage

    @property
    def body(self) -> str:
        part = self.message.get_body(("plain",))
        assert part is not None, "a text/plain part"
        return str(part.get_content())


class SmtpServer:
    def __init__(self) -> None:
        self.mails: list[Mail] = []
        self.arrived = threading.Condition()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    @property
    def env(self) -> dict[str, str]:
        """The server's settings to send here."""
        return {
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": str(self.port),
            "SMTP_STARTTLS": "false",
            "SMTP_FROM": "Krypkasino <games@example.org>",
        }

    def close(self) -> None:
        self.controller.stop()

    async def handle_DATA(  # noqa: N802 (aiosmtpd's name)
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        raw = envelope.original_content or b""
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        mail = Mail(str(envelope.mail_from), [str(r) for r in envelope.rcpt_tos], parsed)
        with self.arrived:
            self.mails.append(mail)
            self.arrived.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[Mail]:
        with self.arrived:
            return [m for m in self.mails if address in m.recipients]

    def wait_for(self, address: str, count: int, timeout: float = 20) -> list[Mail]:
        """The mails to ``address`` once there are ``count`` (fails after ``timeout``)."""
        end = time.monotonic() + timeout
        with self.arrived:
            while len(self.to(address)) < count:
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.to(address))} mails, wanted {count}")
                self.arrived.wait(left)
            return self.to(address)


def link(mail: Mail, path: str) -> str:
    """The first URL in the mail's text whose path starts with ``path``."""
    for word in mail.body.split():
        if path in word and word.startswith("http"):
            return word
    raise AssertionError(f"no {path} link in:\n{mail.body}")


def headers(mail: Mail) -> dict[str, Any]:
    return {k.lower(): str(v) for k, v in mail.message.items()}
