"""Settings from environment variables (pydantic-settings).

Every knob a host may turn is here, with the embedded default: SQLite under
./data/ and no Redis, so that one command runs a complete server.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict

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


@lru_cache
def get_settings() -> Settings:
    return Settings()
