"""``python -m bot``: read the configuration, then run until SIGINT or SIGTERM.

Exit status: 0 after a clean stop, 2 when it cannot start (configuration, a
refused token, no session starts left today), 3 when other processes took
over all its shards (:data:`bot.app.EXIT_TAKEN_OVER`).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from .app import RummyBot, StartRefused, point_at
from .config import Config, ConfigError

log = logging.getLogger("bot")


async def run(config: Config) -> int:
    """Run the bot until it is stopped; returns its exit status."""
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
    return bot.exit_code


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=config.log_level, root=True)
    point_at(config)
    try:
        return asyncio.run(run(config))
    except StartRefused as refusal:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("error: Discord refused DISCORD_TOKEN (invalid or reset token); copy the token "
              "again from the Developer Portal", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: the bot asked for a privileged intent it does not need", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
