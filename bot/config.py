"""Configuration from the environment and ``.env`` (python-dotenv).

The environment wins over ``.env`` (``load_dotenv`` without ``override``), so a
deployment or a test can set any variable without editing files.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import load_dotenv

from .shards import parse_shard_ids
from .store.backends import is_postgres_url

IDENTIFY_WINDOW = 5.0
"""Discord's seconds between two IDENTIFYs of one bucket (``shard_id % max_concurrency``)."""


class ConfigError(Exception):
    """A configuration problem, explained in one line for the person starting the bot."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database_path: Path
    """The SQLite file, used when ``database_url`` is not set."""
    dev_guild_id: int | None = None
    log_level: int = logging.INFO
    api_base: str | None = None
    gateway_url: str | None = None
    computer_delay: float = 1.5
    """Seconds a computer player waits before moving, so people can follow (UX.md)."""
    restart_grace: int = 60
    """Least time a player has after a restart before their turn timer can expire."""
    render_processes: int = 0
    """Worker processes drawing pictures; 0 draws them in threads (see bot.render)."""
    think_seconds: float = 1.0
    """Seconds a strong computer player searches for one move (see bot.thinker)."""
    think_playouts: int = 0
    """Samples a strong computer player searches per move instead of a time: a fixed
    amount of thinking, so its moves are reproducible from the seed (tests); 0: by time."""
    think_processes: int = 1
    """Worker processes for strong computer players' searches (started on first use);
    0 searches in a thread of the bot process."""
    shard_count: int | None = None
    """Shards across all processes (``SHARD_COUNT``); ``None``: Discord's recommendation."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``SHARD_IDS``); ``None``: all of them."""
    identify_window: float = IDENTIFY_WINDOW
    """Seconds between two IDENTIFYs of one bucket; shorter only for a test server
    on this machine (``IDENTIFY_WINDOW``, read by the fake Discord too)."""
    database_url: str | None = None
    """PostgreSQL (``postgresql://…``) instead of the SQLite file."""

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, env_file: str | os.PathLike[str] | None = ".env") -> Config:
        if env_file is not None:
            load_dotenv(env_file, override=False)
        env = os.environ
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: copy .env.example to .env and put your "
                              "bot's token in it (Discord Developer Portal → Bot → Reset Token)")
        if any(c.isspace() for c in token) or token.count(".") != 2:
            raise ConfigError("DISCORD_TOKEN does not look like a bot token (three parts "
                              "separated by dots); copy it again from the Developer Portal")
        level_name = env.get("LOG_LEVEL", "INFO").strip().upper()
        level = logging.getLevelName(level_name)
        if not isinstance(level, int):
            raise ConfigError(f"LOG_LEVEL {level_name!r} is not one of DEBUG, INFO, WARNING, "
                              "ERROR")
        gateway_url = env.get("DISCORD_GATEWAY_URL", "").strip() or None
        shard_count, shard_ids = _shards(env)
        return cls(
            token=token,
            database_path=Path(env.get("DATABASE_PATH", "").strip() or "rummy.sqlite3"),
            database_url=_database_url(env),
            dev_guild_id=_optional_int(env, "DEV_GUILD_ID"),
            log_level=level,
            api_base=env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
            gateway_url=gateway_url,
            computer_delay=_float(env, "COMPUTER_DELAY", 1.5),
            restart_grace=int(_float(env, "RESTART_GRACE", 60)),
            render_processes=int(_float(env, "RENDER_PROCESSES", default_render_processes())),
            think_seconds=_float(env, "COMPUTER_THINK_SECONDS", 1.0),
            think_playouts=int(_float(env, "COMPUTER_THINK_PLAYOUTS", 0)),
            think_processes=int(_float(env, "COMPUTER_THINK_PROCESSES", 1)),
            shard_count=shard_count,
            shard_ids=shard_ids,
            identify_window=_identify_window(env, gateway_url),
        )


def default_render_processes() -> int:
    """One worker process where there is a spare core, else threads."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


def _database_url(env: os._Environ[str] | dict[str, str]) -> str | None:
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return None
    if not is_postgres_url(url):
        raise ConfigError("DATABASE_URL must be a PostgreSQL URL (postgresql://user@host/db); "
                          "leave it unset to keep games in the SQLite file DATABASE_PATH")
    return url


def _optional_int(env: os._Environ[str] | dict[str, str], key: str) -> int | None:
    raw = env.get(key, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ConfigError(f"{key} must be a Discord id (digits only), not {raw!r}")
    return int(raw)


def _shards(env: os._Environ[str] | dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (``0-3``, ``4,5``), checked together."""
    raw_count = env.get("SHARD_COUNT", "").strip()
    raw_ids = env.get("SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT, the number of shards across all "
                              "processes (e.g. SHARD_COUNT=4 SHARD_IDS=0-1)")
        return None, None
    if not raw_count.isdigit() or int(raw_count) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not "
                          f"{raw_count!r}")
    count = int(raw_count)
    if not raw_ids:
        return count, None
    try:
        return count, parse_shard_ids(raw_ids, count)
    except ValueError as error:
        raise ConfigError(f"SHARD_IDS {raw_ids!r}: {error}") from None


def _identify_window(env: os._Environ[str] | dict[str, str], gateway_url: str | None) -> float:
    """Discord's 5 s, or longer; shorter only against a test gateway on this machine."""
    window = _float(env, "IDENTIFY_WINDOW", IDENTIFY_WINDOW)
    if window < IDENTIFY_WINDOW and not _is_loopback(gateway_url):
        raise ConfigError(f"IDENTIFY_WINDOW below Discord's {IDENTIFY_WINDOW:g} seconds is only "
                          "for a test server on this machine (DISCORD_GATEWAY_URL on "
                          "127.0.0.1); unset it")
    return window


def _is_loopback(url: str | None) -> bool:
    host = urlsplit(url).hostname if url else None
    if host == "localhost":
        return True
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _float(env: os._Environ[str] | dict[str, str], key: str, default: float) -> float:
    raw = env.get(key, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a number of seconds, not {raw!r}") from None
    if value < 0:
        raise ConfigError(f"{key} cannot be negative")
    return value
