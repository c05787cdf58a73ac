"""Which language each message is in (issue 22): the clicker's for an ephemeral answer, the
server's for public messages and DMs.

* A player's own choice (``/rummy settings language``, kept in their settings' ``extra``)
  wins: it is how a player reads Malay, which Discord's clients do not offer. Without one,
  the interaction's locale (``interaction.locale``) when the bot speaks it; else the
  server's language.
* A server's language is what a member with Manage Server set
  (``/rummy settings server_language``, kept in the server settings), else the server's
  ``preferred_locale`` when the bot speaks it, else English.

Both are read from the store once and cached; changing one goes through here, so the
cache is never stale in the process that owns the server (each server's interactions reach
one process). A player's choice made in another process is seen within ``USER_TTL``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord

from .i18n import LANGUAGES, SOURCE, from_discord, use
from .store import Store, StoreError

log = logging.getLogger(__name__)

LANGUAGE_KEY = "language"
"""The key in user settings' ``extra`` and in server settings."""
USER_TTL = 60.0
"""Seconds a player's cached choice is trusted (it may change in another process)."""


def spoken(code: object) -> str | None:
    """``code`` if it is a language the bot speaks."""
    return code if isinstance(code, str) and code in LANGUAGES else None


class Languages:
    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._users: dict[int, tuple[float, str | None]] = {}
        self._servers: dict[int, str | None] = {}

    async def chosen(self, user_id: int) -> str | None:
        """The language a player chose with ``/rummy settings language``, if any."""
        cached = self._users.get(user_id)
        if cached is not None and self.clock() - cached[0] < USER_TTL:
            return cached[1]
        settings = await self.store.get_settings(user_id)
        found = spoken(settings.extra.get(LANGUAGE_KEY))
        self._users[user_id] = (self.clock(), found)
        return found

    async def set_chosen(self, user_id: int, language: str | None) -> None:
        """Choose (or with None forget) a player's language."""
        await self.store.set_settings(user_id, extra={LANGUAGE_KEY: language})
        self._users[user_id] = (self.clock(), language)

    async def server_setting(self, guild_id: int) -> str | None:
        """The language a member with Manage Server set, if any."""
        if guild_id not in self._servers:
            settings = await self.store.get_server_settings(guild_id)
            self._servers[guild_id] = spoken(settings.get(LANGUAGE_KEY))
        return self._servers[guild_id]

    async def set_server(self, guild_id: int, language: str | None) -> None:
        await self.store.set_server_settings(guild_id, {LANGUAGE_KEY: language})
        self._servers[guild_id] = language

    async def server(self, guild_id: int | None, preferred: object = None) -> str:
        """A server's language for public messages and DMs: as set, else its Discord
        ``preferred_locale`` (``preferred``) when spoken, else English."""
        if guild_id is not None and (chosen := await self.server_setting(guild_id)):
            return chosen
        return from_discord(str(preferred) if preferred is not None else None) or SOURCE

    async def of_guild(self, client: discord.Client, guild_id: int | None) -> str:
        """:meth:`server` for a server the bot may have in its cache."""
        guild = client.get_guild(guild_id) if guild_id is not None else None
        return await self.server(guild_id, guild.preferred_locale if guild else None)

    async def for_interaction(self, interaction: discord.Interaction) -> str:
        """The clicker's language: their choice, else their client's, else the server's."""
        chosen = await self.chosen(interaction.user.id)
        if chosen:
            return chosen
        client = from_discord(str(interaction.locale))
        if client:
            return client
        return await self.server(interaction.guild_id, interaction.guild_locale)

    async def public(self, interaction: discord.Interaction) -> str:
        """The language of a public message made while answering ``interaction``."""
        return await self.server(interaction.guild_id, interaction.guild_locale)

    async def enter(self, interaction: discord.Interaction) -> None:
        """Speak the clicker's language for the rest of this interaction's handling (their
        client's when the store cannot say: an answer in some language beats none)."""
        try:
            language = await self.for_interaction(interaction)
        except StoreError:
            log.warning("no language for interaction %s", interaction.id, exc_info=True)
            language = from_discord(str(interaction.locale)) or SOURCE
        use(language)
