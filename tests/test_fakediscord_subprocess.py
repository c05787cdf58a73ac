"""A bot in another process finds the fake through its environment alone.

The script below does what ``python -m bot`` will do with ``DISCORD_API_BASE``
and ``DISCORD_GATEWAY_URL``; the test only hands it ``fake.bot_env()``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap

from tests.fakediscord import FakeDiscord

BOT_SCRIPT = textwrap.dedent(
    """
    import os

    import discord
    import yarl
    from discord import app_commands

    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])


    class Bot(discord.Client):
        def __init__(self):
            super().__init__(intents=discord.Intents.default())
            self.tree = app_commands.CommandTree(self)

        async def setup_hook(self):
            guild = discord.Object(int(os.environ["DEV_GUILD_ID"]))

            @self.tree.command(name="ping", description="Are you there?", guild=guild)
            async def ping(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("pong from a subprocess")

            await self.tree.sync(guild=guild)


    Bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
    """
)


async def test_a_bot_process_configured_by_environment(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.guild("Rummy Club")
    env = {**os.environ, **fake_discord.bot_env(dev_guild=guild)}
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", BOT_SCRIPT, env=env)
    try:
        await fake_discord.wait_until_ready(timeout=30)
        inter = await fake_discord.slash(fake_discord.user("alice"), "/ping")
        reply = await inter.reply()
    finally:
        process.terminate()
        await process.wait()

    assert reply.content == "pong from a subprocess"
    assert env["DISCORD_API_BASE"] == f"{fake_discord.url}/api/v10"
    assert env["DISCORD_GATEWAY_URL"].startswith("ws://127.0.0.1:")
