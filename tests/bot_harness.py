"""Running the real bot in-process against the fake Discord, configured as a deployment is."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import RummyBot, point_at
from bot.config import Config
from bot.store.backends import is_postgres_url
from tests.fakediscord import FakeDiscord


def bot_config(fake: FakeDiscord, database: Path | str, **overrides: Any) -> Config:
    """``database``: a SQLite file's path, or a PostgreSQL URL (``DATABASE_URL``)."""
    env = fake.bot_env()
    url = str(database) if is_postgres_url(str(database)) else None
    config = Config(token=env["DISCORD_TOKEN"], database_path=Path(database) if url is None
                    else Path("rummy.sqlite3"), database_url=url,
                    api_base=env["DISCORD_API_BASE"], gateway_url=env["DISCORD_GATEWAY_URL"],
                    computer_delay=0.01, restart_grace=60, render_processes=0,
                    think_playouts=2, identify_window=fake.identify_window)
    return dataclasses.replace(config, **overrides)


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, database: Path | str, **overrides: Any
                      ) -> AsyncIterator[RummyBot]:
    """Start the bot (pointed at the fake by its own configuration) and stop it after.

    Ready once its own shards are connected (``shard_ids``/``shard_count`` among
    ``overrides``; by default every shard of the count it chose).
    """
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    config = bot_config(fake, database, **overrides)
    point_at(config)
    bot = RummyBot(config)
    since = len(fake.gateway.sessions)
    task = asyncio.create_task(bot.start(config.token))
    shards = config.shard_ids if config.shard_ids is not None else (
        range(config.shard_count) if config.shard_count is not None else None)
    try:
        ready = asyncio.create_task(fake.wait_until_ready(
            commands=True, timeout=10, shards=shards, shard_count=config.shard_count,
            since_session=since))
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            ready.cancel()
            task.result()
        ready.result()
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, discord.HTTPException):
            await task
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
