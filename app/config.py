"""Settings from environment variables (pydantic-settings).

Every knob a host may turn is here, with the embedded default: SQLite under
./data/ and no Redis, so that one command runs a complete server.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .gc_tuning import DEFAULT_THRESHOLDS as DEFAULT_GC_THRESHOLDS
from .gc_tuning import parse_thresholds

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/krypkasino.db"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL
    """SQLAlchemy async URL: sqlite+aiosqlite:///... or postgresql+asyncpg://..."""
    redis_url: str | None = None
    """Set to share rooms between several server processes (redis://host:6379/0)."""
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    """The URL printed at start and used in invite links; derived from host/port if unset."""
    log_level: str = "info"
    log_json: bool = True

    ws_compression: bool = True
    """permessage-deflate on WebSocket connections (12-bit window, memLevel 5): a patch
    shrinks from ~480 to ~50 bytes on the wire, for ~45 KB of memory per connection and a
    few percent more CPU (docs/deploy.md).  Turn off where memory is tighter than bandwidth."""

    max_message_bytes: int = 4096
    """A WebSocket message larger than this closes the connection with 1009."""
    rate_per_second: float = 20.0
    rate_burst: int = 60
    """Token bucket per connection; past it messages get rate_limited errors."""
    rate_abuse_limit: int = 50
    """Rate-limited messages tolerated before the connection is closed with 1008."""
    hello_timeout: float = 10.0
    patch_history: int = 256
    """Patches held per audience for clients that reconnect with last_seq."""

    default_bot_delay: float = 0.8
    """Seconds a bot waits before playing, so people can follow the game."""
    default_grace: float = 60.0
    """Seconds a disconnected player may be gone before a bot plays for them."""
    bot_budget: float = 0.5
    """Thinking time per move for the strong bot."""
    room_idle_seconds: float = Field(default=600.0, gt=0)
    """A room with no connection and nothing scheduled leaves memory after this long
    (it is reloaded from the database when next used)."""

    retention_days: int = Field(default=0, ge=0)
    """Finished rooms whose last change is older than this many days are removed by the
    running server (a tombstone answers 410 "purged" for them); 0 keeps them forever."""
    retention_interval: float = Field(default=3600.0, gt=0)
    """Seconds between the server's retention sweeps (when RETENTION_DAYS is set)."""

    admin_token_hash: str | None = None
    """SHA-256 (hex) of the admin token (``krypkasino admin-token`` makes one); unset,
    the admin API and page are off (404).  The token itself is never stored."""

    gc_thresholds: str = DEFAULT_GC_THRESHOLDS
    """Garbage collector thresholds "g0,g1,g2" set as the server starts (see
    app/gc_tuning.py); empty keeps CPython's defaults."""

    @field_validator("admin_token_hash")
    @classmethod
    def _check_admin_hash(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().lower()
        if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
            raise ValueError("ADMIN_TOKEN_HASH must be the 64 hex digits of a SHA-256 "
                             "(krypkasino admin-token prints one)")
        return value

    @field_validator("gc_thresholds")
    @classmethod
    def _check_gc_thresholds(cls, value: str) -> str:
        parse_thresholds(value)
        return value


@lru_cache
def get_settings() -> Settings:
    return Settings()
