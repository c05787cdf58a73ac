"""``/gin``: Gin Rummy lobbies and typed moves (70-gin.md GIN-40, UX.md).

Moves: ``draw source``, ``take`` (the upcard or the top discard), ``pass`` (the
upcard offer, the wall), ``discard card``, ``knock [card] [groups]`` (no card:
big gin), ``gin card [groups]`` (a knock refused unless it is gin) and
``check [groups]`` (private). Buttons and the hand panel are
:mod:`bot.controls.gin`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.controls.base import Reply
from bot.engine.cards import Card
from bot.engine.errors import IllegalMove
from bot.engine.game import Game
from bot.engine.moves import Discard, Draw
from bot.engine.variants.gin import GinGame, Knock, Pass

from .base import LEVEL_HELP, Level, Reader, VariantCog


def _knock(card: str | None, groups: str | None, gin: bool):
    def build(game: Game, seat: int, read: Reader) -> Knock:
        piece = read.card(card) if card else None
        if piece is not None and not isinstance(piece, Card):
            raise IllegalMove("Gin Rummy is played with cards, not tiles")
        return Knock(seat, piece, read.groups(groups) if groups else None, gin)

    return build


class GinCog(VariantCog, group_name="gin",
             group_description="Gin Rummy: draw or take, discard, knock"):
    key = "gin"

    @app_commands.command(name="new", description="Open a Gin Rummy lobby in this channel")
    @app_commands.describe(
        knock_limit="Most deadwood a knock may leave (0 = gin only)",
        gin_bonus="Bonus for gin", undercut_bonus="Bonus for an undercut",
        undercut_on_tie="Equal counts are an undercut (off: nobody scores)",
        big_gin_bonus="Bonus for gin with all 11 cards (0 = off; 31 is usual)",
        oklahoma="The first upcard's value is the knock limit (an ace: gin only)",
        oklahoma_spades_double="With oklahoma, a spade upcard doubles the hand",
        discard_taken_card="A card taken from the pile may be discarded the same turn",
        fiftieth_card="With 2 stock cards left, the next player may still knock",
        line_bonus="End bonus per hand won (box)", game_bonus="End bonus for the winner",
        shutout="When the loser won no hand: double, bonus or off",
        target="The game ends when a score reaches this",
        hands="Play exactly this many hands instead",
        dealer="Who deals next: the hand's winner, or alternate",
        turn_seconds="Seconds per decision (0 = none, else 10–600)",
        preset="openspiel: OpenSpiel's rules where not set explicitly",
        computers="Computer players to seat now", level=LEVEL_HELP,
        seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  knock_limit: app_commands.Range[int, 0, 10] | None = None,
                  gin_bonus: app_commands.Range[int, 0, 100] | None = None,
                  undercut_bonus: app_commands.Range[int, 0, 100] | None = None,
                  undercut_on_tie: bool | None = None,
                  big_gin_bonus: app_commands.Range[int, 0, 100] | None = None,
                  oklahoma: bool | None = None,
                  oklahoma_spades_double: bool | None = None,
                  discard_taken_card: bool | None = None,
                  fiftieth_card: bool | None = None,
                  line_bonus: app_commands.Range[int, 0, 100] | None = None,
                  game_bonus: app_commands.Range[int, 0, 500] | None = None,
                  shutout: Literal["double", "bonus", "off"] | None = None,
                  target: app_commands.Range[int, 10, 1000] | None = None,
                  hands: app_commands.Range[int, 1, 100] | None = None,
                  dealer: Literal["winner", "alternate"] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  preset: Literal["standard", "openspiel"] | None = None,
                  computers: app_commands.Range[int, 0, 1] | None = None,
                  level: Level | None = None,
                  seed: int | None = None) -> None:
        values = dict(knock_limit=knock_limit, gin_bonus=gin_bonus,
                      undercut_bonus=undercut_bonus, undercut_on_tie=undercut_on_tie,
                      big_gin_bonus=big_gin_bonus, oklahoma=oklahoma,
                      oklahoma_spades_double=oklahoma_spades_double,
                      discard_taken_card=discard_taken_card, fiftieth_card=fiftieth_card,
                      line_bonus=line_bonus, game_bonus=game_bonus, shutout=shutout,
                      target=target, hands=hands, dealer=dealer, turn_seconds=turn_seconds,
                      preset=preset)
        await self.open_lobby(interaction, values, computers, seed, level)

    @app_commands.command(name="draw", description="Draw from the stock or take the top "
                                                   "discard")
    @app_commands.describe(source="stock (face down) or discard (the face-up card)")
    async def draw(self, interaction: discord.Interaction,
                   source: Literal["stock", "discard"]) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, source))

    @app_commands.command(name="take", description="Take the upcard or the top discard")
    async def take(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, "discard"))

    @app_commands.command(name="pass", description="Pass on the upcard, or at the wall")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Pass(seat))

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    @app_commands.describe(card="The card to discard (a code like 7H, or #3)")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, lambda game, seat, read: Discard(seat, read.card(card)))

    @app_commands.command(name="knock", description="Knock: discard a card and lay your melds "
                                                    "(no card: big gin)")
    @app_commands.describe(card="The card you discard", groups="Your melds, e.g. 2S 3S 4S | "
                           "9C 9D 9H (left out: the bot finds the best)")
    async def knock(self, interaction: discord.Interaction, card: str | None = None,
                    groups: str | None = None) -> None:
        await self.play(interaction, _knock(card, groups, False))

    @app_commands.command(name="gin", description="Go gin: knock with no deadwood")
    @app_commands.describe(card="The card you discard", groups="Your melds (left out: the "
                                                                 "bot finds them)")
    async def gin(self, interaction: discord.Interaction, card: str,
                  groups: str | None = None) -> None:
        await self.play(interaction, _knock(card, groups, True))

    @app_commands.command(name="check", description="Privately: your best melds and deadwood, "
                                                    "and whether you may knock")
    @app_commands.describe(groups="Groups to count instead of the best ones")
    async def check(self, interaction: discord.Interaction, groups: str | None = None) -> None:
        def build(game: Game, seat: int, read: Reader) -> Reply:
            assert isinstance(game, GinGame), "the /gin commands act on Gin Rummy sessions"
            text = game.check(seat, read.groups(groups) if groups else None)
            return Reply(f"**Check** (only you see this; nothing changed): {text}")

        await self.play(interaction, build)

    @discard.autocomplete("card")
    @knock.autocomplete("card")
    @gin.autocomplete("card")
    async def _card(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)

    @knock.autocomplete("groups")
    @gin.autocomplete("groups")
    @check.autocomplete("groups")
    async def _groups(self, interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)


async def setup(bot) -> None:
    await bot.add_cog(GinCog(bot))
