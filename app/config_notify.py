"""The settings of telling players things away from the table: Web Push (issue 32,
hardened in issue 46) and email.  A part of ``app.config.Settings``, kept apart so that
each settings module stays readable; docs/deploy.md, "Web Push" and "Email (optional)".
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


class NotifyConfig(BaseModel):
    """Web Push and email: off switches, keys, limits and the mail server."""

    push: bool = True
    """Web Push (issue 32): a player who asked for it is told of their turn when no
    page of theirs is open.  The VAPID key pair is made at the first start and kept in
    the database, unless ``vapid_private_key`` gives one."""
    push_delay: float = Field(default=15.0, ge=0, le=3600)
    """Seconds a turn waits before a player with no page open is told of it."""
    vapid_private_key: str | None = None
    """The VAPID private key (PEM, or a path to a PEM file); unset: made and kept."""
    vapid_subject: str = "mailto:admin@localhost"
    """How a push service may reach the host (a ``mailto:`` or ``https:`` URL): set it
    to your address; some push services refuse messages without a real one."""
    push_allow_local: bool = False
    """Accept push endpoints on this machine or a private network, and plain http
    (the tests' own push service); never on a public instance."""
    push_subscriptions_per_key: int = Field(default=10, ge=0)
    """Web Push subscriptions kept per player key (a browser each); a new one replaces
    the oldest beyond this (0: no limit)."""
    push_subscriptions_per_account: int = Field(default=10, ge=0)
    """Web Push subscriptions kept per account, over every key linked to it; a new one
    replaces the oldest beyond this (0: no limit)."""
    push_subscribe_per_minute: float = Field(default=10.0, ge=0)
    """``POST /api/push/subscriptions`` per client address a minute, all at once if need
    be (0: no limit)."""
    smtp_host: str | None = None
    """The mail server the server sends through; unset: no email at all (the settings
    panel hides it)."""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_user: str | None = None
    """Sign in to the mail server as this user (with SMTP_PASSWORD); unset: no login."""
    smtp_password: str | None = None
    smtp_from: str = "Krypkasino <noreply@localhost>"
    """The From of every mail: an address of your domain, or the mails are junk."""
    smtp_starttls: bool = True
    """Switch the connection to TLS (STARTTLS) before signing in; false only for a
    mail server on this machine."""
    smtp_ssl: bool = False
    """Connect with TLS from the start (port 465) instead of STARTTLS."""
    smtp_timeout: float = Field(default=20.0, gt=0, le=300)
    digest_hour: int = Field(default=7, ge=0, le=23)
    """The UTC hour from which the day's digest goes out (at most one a day per address)."""
    digest_check_seconds: float = Field(default=300.0, ge=0.05, le=86400)
    """How often each process looks for digests due (whichever claims one sends it)."""
    mail_confirm_interval: float = Field(default=60.0, ge=0, le=86400)
    """Seconds before a player may ask for another confirmation mail."""

    @field_validator("smtp_host", "smtp_user", "smtp_password", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """SMTP_HOST= (as compose files write it) means: no email."""
        return None if isinstance(value, str) and not value.strip() else value
