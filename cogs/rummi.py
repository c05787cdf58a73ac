"""``/rummi``: Singapore Rummi lobbies and typed plays (40-rummi.md, UX.md).

``play cards`` lays a new 3-card meld; ``play cards meld:N`` adds one card to
meld N; ``done`` ends a turn of several plays (``plays_per_turn`` = ``many``).
Tien Hu is checked before play; chips are settled at the end of each game.
Buttons and the hand panel are :mod:`bot.controls.rummi`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.engine.moves import Done, LayOff, MeldDown

from .base import LEVEL_HELP, Level, VariantCog


class RummiCog(VariantCog, group_name="rummi",
               group_description="Rummi (Singapore): one play at a time, chips at the end"):
    key = "rummi"

    @app_commands.command(name="new", description="Open a Rummi lobby in this channel")
    @app_commands.describe(
        plays_per_turn="One play per turn, or many ended by done",
        hu_chips="Chips each player pays a Hu winner",
        tiers="Chips paid to first place by places 2, 3, … like 1-2-3",
        turn_seconds="Turn timer in seconds (0 = none, else 30–600)",
        games="Games in the match",
        computers="Computer players to seat now", level=LEVEL_HELP,
        seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  plays_per_turn: Literal["one", "many"] | None = None,
                  hu_chips: app_commands.Range[int, 1, 1000] | None = None,
                  tiers: app_commands.Range[str, 1, 100] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  games: app_commands.Range[int, 1, 20] | None = None,
                  computers: app_commands.Range[int, 0, 4] | None = None,
                  level: Level | None = None,
                  seed: int | None = None) -> None:
        values = dict(plays_per_turn=plays_per_turn, hu_chips=hu_chips, tiers=tiers,
                      turn_seconds=turn_seconds, games=games)
        await self.open_lobby(interaction, values, computers, seed, level)

    @app_commands.command(name="play", description="Lay a new 3-card meld, or add one card to "
                                                   "meld N")
    @app_commands.describe(cards="Three cards for a new meld, or one card to add",
                           meld="The meld to add the card to (left out: a new meld)")
    async def play_(self, interaction: discord.Interaction, cards: str,
                    meld: app_commands.Range[int, 1, 500] | None = None) -> None:
        await self.play(interaction, lambda game, seat, read: (
            MeldDown(seat, (read.placed(cards),)) if meld is None
            else LayOff(seat, read.placed(cards), meld)))

    @app_commands.command(name="done", description="End your turn (plays_per_turn: many)")
    async def done(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Done(seat))

    @play_.autocomplete("cards")
    async def _cards(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)


async def setup(bot) -> None:
    await bot.add_cog(RummiCog(bot))
