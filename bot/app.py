"""The Discord client: a commands.Bot that opens the store, loads cogs and restores games."""

from __future__ import annotations

import asyncio
import logging

import discord
import yarl
from discord.ext import commands

from .config import Config
from .controller import Controller
from .interactions import FAILED, received, reply
from .registry import VARIANTS
from .replay import REPLAY_ITEMS
from .store import Store
from .ui import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

COGS = ("cogs.rummy", *(v.extension for v in VARIANTS.values()))
"""``/rummy`` and one command group per playable variant (from the registry)."""


def point_at(config: Config) -> None:
    """Send HTTP and the gateway to a proxy or test server when configured.

    discord.py reads these class attributes for every request (interaction
    callbacks and webhooks included), so they must be set before ``start``.
    """
    if config.api_base:
        discord.http.Route.BASE = config.api_base
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


class RummyTree(discord.app_commands.CommandTree):
    """Commands that fail unexpectedly are logged and answered in one private line."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        received(interaction)  # the answer's 3 seconds count from here (bot.interactions)
        return True

    async def on_error(self, interaction: discord.Interaction,
                       error: discord.app_commands.AppCommandError) -> None:
        log.error("command %s failed", interaction.command and interaction.command.name,
                  exc_info=error)
        await reply(interaction, FAILED)


class RummyBot(commands.Bot):
    """No privileged intents: slash commands, components and DMs need none."""

    def __init__(self, config: Config) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(),
                         tree_cls=RummyTree)
        self.config = config
        self.store: Store | None = None
        self.controller: Controller = None  # type: ignore[assignment]
        self._idle_task: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.database)
        self.controller = Controller(self, self.config, self.store)
        await self.controller.renderer.start()
        self.add_dynamic_items(*DYNAMIC_ITEMS, *REPLAY_ITEMS)
        for name in COGS:
            await self.load_extension(name)
        await self.sync_commands()
        await self.controller.restore()
        self._idle_task = asyncio.create_task(self.controller.lobby.expire_idle(),
                                              name="idle-lobbies")

    async def sync_commands(self) -> None:
        """To the development guild at once when set, else globally (may take an hour)."""
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d command groups", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d server(s)", self.user, len(self.guilds))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        session = self.controller.sessions.in_channel(channel.id)
        if session is not None:
            log.info("channel %s deleted: cancelling game %s", channel.id, session.game_id)
            await self.controller.sessions.abandon(session, self.controller.store)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self.on_guild_channel_delete(thread)  # type: ignore[arg-type]

    async def close(self) -> None:
        """Finish moves in progress, stop timers, close the database, then disconnect."""
        if self._idle_task is not None:
            self._idle_task.cancel()
        if self.controller is not None:
            await self.controller.shutdown()
        if self.store is not None:
            await self.store.close()
            self.store = None
        await super().close()
