"""``/indian``: Indian 13-card Rummy lobbies and typed moves (20-indian.md, UX.md).

Moves: ``draw source``, ``discard card``, ``check [groups]``, ``declare finish [groups]``,
``drop``. Buttons, the hand panel and the confirmations of a declaration or a drop are
:mod:`bot.controls.indian`; ``check`` and ``declare`` answer with the same questions.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.controls.indian import IndianControls
from bot.engine.moves import Discard, Draw
from bot.engine.variants.indian import Drop

from .base import LEVEL_HELP, Level, VariantCog


class IndianCog(VariantCog, group_name="indian",
                group_description="Indian Rummy: draw, discard, check, declare, drop"):
    key = "indian"

    @property
    def controls(self) -> IndianControls:
        controls = self.variant.controls
        assert isinstance(controls, IndianControls)
        return controls

    @app_commands.command(name="new", description="Open an Indian Rummy lobby in this channel")
    @app_commands.describe(
        format="points = one deal; pool101/pool201 = until one is left; deals = fixed deals",
        deals="Number of deals with format deals",
        decks="Packs: 1 = 53 cards, 2 = 106 cards (default: by player count)",
        wild_joker="Cut a wild joker (off = printed jokers only)",
        turn_seconds="Turn timer in seconds (0 = none, else 10–600)",
        misses_to_drop="Missed turns in a row that drop a player (1–10)",
        first_open_joker_pickup="The deal's first open card may be taken even if a joker",
        computers="Computer players to seat now", level=LEVEL_HELP,
        seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  format: Literal["points", "pool101", "pool201", "deals"] | None = None,
                  deals: Literal[2, 3, 6] | None = None,
                  decks: Literal["1", "2"] | None = None,
                  wild_joker: bool | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  misses_to_drop: app_commands.Range[int, 1, 10] | None = None,
                  first_open_joker_pickup: bool | None = None,
                  computers: app_commands.Range[int, 0, 5] | None = None,
                  level: Level | None = None,
                  seed: int | None = None) -> None:
        values = dict(format=format, deals=deals, decks=decks, wild_joker=wild_joker,
                      turn_seconds=turn_seconds, misses_to_drop=misses_to_drop,
                      first_open_joker_pickup=first_open_joker_pickup)
        await self.open_lobby(interaction, values, computers, seed, level)

    @app_commands.command(name="draw", description="Draw from the closed deck or take the open "
                                                   "card")
    @app_commands.describe(source="closed (face down) or open (the face-up card)")
    async def draw(self, interaction: discord.Interaction,
                   source: Literal["closed", "open"]) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, source))

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    @app_commands.describe(card="The card to discard (a code like 7H, or #3)")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, lambda game, seat, read: Discard(seat, read.card(card)))

    @app_commands.command(name="check", description="Privately: would your hand be a valid "
                                                    "show? Changes nothing")
    @app_commands.describe(groups="Your groups, e.g. AD 2D 3D | 5S 6S 7S | … (left out: the "
                                  "bot searches)")
    async def check(self, interaction: discord.Interaction, groups: str | None = None) -> None:
        await self.play(interaction, lambda game, seat, read: self.controls.check_reply(
            game, seat, groups=read.groups(groups) if groups else None))

    @app_commands.command(name="declare", description="Show your hand: name the finish card "
                                                      "(asks to confirm)")
    @app_commands.describe(finish="The card that goes on the open deck",
                           groups="The other 13 cards grouped, e.g. AD 2D 3D | … (left out: "
                                  "the bot finds them)")
    async def declare(self, interaction: discord.Interaction, finish: str,
                      groups: str | None = None) -> None:
        await self.play(interaction, lambda game, seat, read: self.controls.confirm_declare(
            game, seat, read.card(finish), read.groups(groups) if groups else None))

    @app_commands.command(name="drop", description="Leave this deal before drawing (first drop "
                                                   "20, middle drop 40)")
    async def drop(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Drop(seat))

    @discard.autocomplete("card")
    @declare.autocomplete("finish")
    async def _card(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)

    @check.autocomplete("groups")
    @declare.autocomplete("groups")
    async def _groups(self, interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)


async def setup(bot) -> None:
    await bot.add_cog(IndianCog(bot))
