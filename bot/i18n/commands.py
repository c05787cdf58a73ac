"""Slash command descriptions and choice names in each user's language (issue 22).

discord.py asks the tree's translator for every ``locale_str`` when it syncs the commands
(every description and choice name is one) and sends Discord a localisation per locale.
Command and option *names* are never translated: UX.md fixes them, in English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import DISCORD_LOCALES, SOURCE, catalog

LIMIT = 100
"""Discord's limit on a description or choice name (the catalog tests hold translations to
it; a longer one here would make Discord refuse every command)."""
NAMES = (app_commands.TranslationContextLocation.command_name,
         app_commands.TranslationContextLocation.group_name,
         app_commands.TranslationContextLocation.parameter_name)


class CommandTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The description or choice name in ``locale``'s language; None (Discord shows
        the English) for names, unspoken locales and messages not translated yet."""
        if context.location in NAMES:
            return None
        language = DISCORD_LOCALES.get(locale.value)
        if language is None or language == SOURCE:
            return None
        text = catalog(language).gettext(string.message)
        if text == string.message or len(text) > LIMIT:  # Discord would refuse the sync
            return None
        return text
