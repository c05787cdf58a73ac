"""``python -m bot``: read the configuration, then run until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from .app import RummyBot, point_at
from .config import Config, ConfigError

log = logging.getLogger("bot")


async def run(config: Config) -> None:
    bot = RummyBot(config)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task] = []

    def stop() -> None:
        if not closing:
            log.info("stopping: letting moves in progress finish")
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    async with bot:
        await bot.start(config.token)


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=config.log_level, root=True)
    point_at(config)
    try:
        asyncio.run(run(config))
    except discord.LoginFailure:
        print("error: Discord refused DISCORD_TOKEN (invalid or reset token); copy the token "
              "again from the Developer Portal", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: the bot asked for a privileged intent it does not need", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
