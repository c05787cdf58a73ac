"""The Discord client: an AutoShardedBot that opens the store, loads cogs and restores games.

It runs the shards of ``SHARD_COUNT``/``SHARD_IDS`` (unset: all of Discord's
recommended count) and owns exactly their guilds' games. Before each shard's
first IDENTIFY it claims the shard in the database and restores its games
(so no interaction of that shard can arrive before its game is back), then
waits for the shard's identify bucket (:mod:`bot.identify`). Should another
process claim one of its shards later, it stops playing those games and
disconnects the shard (:mod:`bot.ownership`).
"""

from __future__ import annotations

import asyncio
import logging

import discord
import yarl
from discord.ext import commands

from .config import Config
from .controller import Controller
from .i18n.commands import CommandTranslator
from .identify import IdentifyPacer
from .interactions import FAILED, received, reply
from .ownership import ShardOwnership
from .registry import VARIANTS
from .replay import REPLAY_ITEMS
from .shards import ShardSet, identify_budget_problem
from .store import ShardClaim, Store
from .ui import DYNAMIC_ITEMS, enter_language

log = logging.getLogger(__name__)

OWNERSHIP_CHECK_SECONDS = 15.0
"""How often a process checks that no newer process has claimed its shards."""
EXIT_TAKEN_OVER = 3
"""``python -m bot``'s exit status when other processes took over all its shards
(the launcher does not restart it)."""


class StartRefused(Exception):
    """The bot must not connect (e.g. today's session starts are used up); one line."""


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
        await enter_language(interaction)
        return True

    async def on_error(self, interaction: discord.Interaction,
                       error: discord.app_commands.AppCommandError) -> None:
        log.error("command %s failed", interaction.command and interaction.command.name,
                  exc_info=error)
        await reply(interaction, FAILED)


class RummyBot(commands.AutoShardedBot):
    """No privileged intents: slash commands, components and DMs need none."""

    def __init__(self, config: Config) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(),
                         tree_cls=RummyTree, shard_count=config.shard_count)
        if config.shard_ids is not None:  # the configuration checked them against the count
            self.shard_ids = list(config.shard_ids)
        self.config = config
        self.store: Store | None = None
        self.controller: Controller = None  # type: ignore[assignment]
        self.ownership: ShardOwnership = None  # type: ignore[assignment]
        self.pacer: IdentifyPacer = None  # type: ignore[assignment]
        self.exit_code = 0
        """``python -m bot``'s exit status: 0, or :data:`EXIT_TAKEN_OVER`."""
        self._background: list[asyncio.Task] = []
        self._check: asyncio.Task | None = None
        self._adopted: set[int] = set()
        """Shards claimed and restored here (a reconnect does neither again)."""

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.database)
        await self.plan_shards()
        self.controller = Controller(self, self.config, self.store)
        self.controller.on_stale = self.suspect_takeover
        await self.controller.renderer.start()
        self.add_dynamic_items(*DYNAMIC_ITEMS, *REPLAY_ITEMS)
        for name in COGS:
            await self.load_extension(name)
        await self.tree.set_translator(CommandTranslator())
        await self.sync_commands()
        self._background = [
            asyncio.create_task(self.controller.lobby.expire_idle(lambda: self.ownership.shards),
                                name="idle-lobbies"),
            asyncio.create_task(self.watch_ownership(), name="shard-ownership"),
        ]

    async def plan_shards(self) -> None:
        """Ask Discord (``GET /gateway/bot``) for the recommended shard count, when none
        is configured, and for the identify limits: today's session starts must cover
        the shards to start, and ``max_concurrency`` sets the identify buckets.

        Setting ``shard_count`` here also makes discord.py connect to
        ``DISCORD_GATEWAY_URL`` rather than the URL this answer names.
        """
        assert self.store is not None
        recommended, _, limits = await self.http.get_bot_gateway()
        if self.shard_count is None:
            self.shard_count = recommended
        mine = ShardSet(self.shard_count, tuple(self.shard_ids or range(self.shard_count)))
        problem = identify_budget_problem(limits["remaining"], len(mine.ids),
                                          limits["reset_after"])
        if problem is not None:
            raise StartRefused(problem)
        self.pacer = IdentifyPacer(self.store, self.config.identify_window,
                                   limits["max_concurrency"])
        self.ownership = ShardOwnership(self.store, self.shard_count)
        log.info("running %s (max_concurrency %d, %d session starts left today)", mine,
                 limits["max_concurrency"], limits["remaining"])

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Take the shard over (claim it, restore its games) on its first IDENTIFY here,
        then wait for its identify bucket. Replaces discord.py's fixed 5 s sleep."""
        shard = shard_id or 0
        if shard not in self._adopted:  # a failure here fails the connect, which discord.py
            await self.ownership.claim(shard)  # retries: so is this, until it is all done
            await self.controller.restore(ShardSet(self.ownership.count, (shard,)))
            self._adopted.add(shard)
        await self.pacer.wait_turn(shard)

    async def watch_ownership(self) -> None:
        """Check now and then that no newer process claimed this process's shards."""
        while True:
            await asyncio.sleep(OWNERSHIP_CHECK_SECONDS)
            await self.check_ownership()

    def suspect_takeover(self) -> None:
        """A write of a game was refused as stale: check the claims now, not in 15 s."""
        if self._check is None or self._check.done():
            self._check = asyncio.create_task(self.check_ownership(), name="shard-claims")

    async def check_ownership(self) -> None:
        """Give up the shards another process has claimed since this one did."""
        try:
            lost = await self.ownership.taken_over()
        except Exception:  # the database is away for a moment: check again next time
            log.warning("could not check shard ownership", exc_info=True)
            return
        if lost:
            await self.give_up(lost)

    async def give_up(self, lost: dict[int, ShardClaim]) -> None:
        """Stop playing the lost shards' games and disconnect those shards; with none
        left, stop the bot (exit status :data:`EXIT_TAKEN_OVER`)."""
        for shard, claim in sorted(lost.items()):
            log.warning("shard %d of %d was taken over by %s (shard %d of %d): it stops here",
                        shard, self.ownership.count, claim.owner, claim.shard_id,
                        claim.shard_count)
        released = self.controller.release(ShardSet(self.ownership.count, tuple(lost)))
        log.warning("stopped playing %d game(s) of the lost shard(s)", released)
        for shard in lost:
            self.ownership.release(shard)
            self._adopted.discard(shard)
            info = self.get_shard(shard)
            if info is not None and not info.is_closed():
                await info.disconnect()
        if not self.ownership.claims:
            log.warning("other processes own all of this process's shards: stopping")
            self.exit_code = EXIT_TAKEN_OVER
            await self.close()

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

    async def on_shard_ready(self, shard_id: int) -> None:
        guilds = sum(1 for guild in self.guilds if guild.shard_id == shard_id)
        log.info("shard %d of %s ready with %d server(s)", shard_id, self.shard_count, guilds)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        session = self.controller.sessions.in_channel(channel.id)
        if session is not None:
            log.info("channel %s deleted: cancelling game %s", channel.id, session.game_id)
            await self.controller.sessions.abandon(session, self.controller.store)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self.on_guild_channel_delete(thread)  # type: ignore[arg-type]

    async def close(self) -> None:
        """Finish moves in progress, stop timers, close the database, then disconnect.

        The disconnect happens whatever fails before it (say the database is busy
        with another process): otherwise ``start`` would never return and the
        process would outlive its SIGTERM.
        """
        for task in self._background:
            if task is not asyncio.current_task():
                task.cancel()
        try:
            if self.controller is not None:
                await self.controller.shutdown()
            if self.store is not None:
                store, self.store = self.store, None
                await store.close()
        except Exception:
            log.exception("could not close cleanly; disconnecting anyway")
        finally:
            await super().close()
