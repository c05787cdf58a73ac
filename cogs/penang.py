"""``/penang``: Penang Rummy (Si Rummy) lobbies and typed moves (30-penang.md, UX.md).

A turn is any number of melds and lay-offs, with joker swaps before or after,
ended by ``done``; ``dead`` concedes the game. Buttons and the hand panel are
:mod:`bot.controls.penang`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.engine.moves import Done, LayOff, MeldDown, Swap
from bot.engine.variants.penang import DeclareDead

from .base import LEVEL_HELP, Level, VariantCog


class PenangCog(VariantCog, group_name="penang",
                group_description="Penang Rummy: meld, lay off, swap jokers, done"):
    key = "penang"

    @app_commands.command(name="new", description="Open a Penang Rummy lobby in this channel")
    @app_commands.describe(
        jokers="Printed jokers in the deck: 6 or 8",
        ace_low="A-2-3 is a run (off: an Ace is high only)",
        dealer_rule="Who deals the next game: the winner (lowest points) or the loser",
        games="Games in the match",
        turn_seconds="Turn timer in seconds (0 = none, else 30–600)",
        points="Card points: standard (2–10 face, J Q K 10, A 15, joker 20)",
        computers="Computer players to seat now", level=LEVEL_HELP,
        seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  jokers: Literal[6, 8] | None = None,
                  ace_low: bool | None = None,
                  dealer_rule: Literal["winner", "loser"] | None = None,
                  games: app_commands.Range[int, 1, 20] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  points: Literal["standard"] | None = None,
                  computers: app_commands.Range[int, 0, 4] | None = None,
                  level: Level | None = None,
                  seed: int | None = None) -> None:
        values = dict(jokers=jokers, ace_low=ace_low, dealer_rule=dealer_rule, games=games,
                      turn_seconds=turn_seconds, points=points)
        await self.open_lobby(interaction, values, computers, seed, level)

    @app_commands.command(name="meld", description="Lay down new melds: 7H 8H 9H | QS QD QC")
    @app_commands.describe(cards="Cards of one or more melds, melds separated by |")
    async def meld(self, interaction: discord.Interaction, cards: str) -> None:
        await self.play(interaction, lambda game, seat, read: MeldDown(seat, read.groups(cards)))

    @app_commands.command(name="layoff", description="Add cards to a meld on the table")
    @app_commands.describe(cards="Cards to add (codes or #positions)",
                           meld="The meld's number on the table")
    async def layoff(self, interaction: discord.Interaction, cards: str,
                     meld: app_commands.Range[int, 1, 500]) -> None:
        await self.play(interaction,
                        lambda game, seat, read: LayOff(seat, read.placed(cards), meld))

    @app_commands.command(name="swap", description="Take a joker from a meld for a card of "
                                                   "yours")
    @app_commands.describe(card="Your card that replaces the joker (a code like 7H, or #3)",
                           meld="The meld's number on the table")
    async def swap(self, interaction: discord.Interaction, card: str,
                   meld: app_commands.Range[int, 1, 500]) -> None:
        await self.play(interaction, lambda game, seat, read: Swap(seat, read.card(card), meld))

    @app_commands.command(name="done", description="End your turn")
    async def done(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Done(seat))

    @app_commands.command(name="dead", description="Declare yourself Dead: no more plays this "
                                                   "game")
    async def dead(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: DeclareDead(seat))

    @meld.autocomplete("cards")
    @layoff.autocomplete("cards")
    async def _cards(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)

    @swap.autocomplete("card")
    async def _card(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)


async def setup(bot) -> None:
    await bot.add_cog(PenangCog(bot))
