"""``/remi``: Indonesian Remi lobbies and typed moves (50-remi.md, UX.md).

Moves: ``draw``, ``take card with`` (a card from the pile's top three with hand
cards that make a combination with it), ``discard card``, ``close card [groups]``
(asks first, showing what the close exposes). Buttons and the hand panel are
:mod:`bot.controls.remi`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.controls.base import Reply
from bot.controls.remi import RemiControls
from bot.engine.cards import Card
from bot.engine.errors import IllegalMove
from bot.engine.game import Game
from bot.engine.moves import Discard, Draw
from bot.engine.notation import parse_single
from bot.engine.variants.remi import RemiGame, Take
from bot.i18n import _

from .base import LEVEL_HELP, Level, Reader, VariantCog, hand_choices


class RemiCog(VariantCog, group_name="remi",
              group_description="Indonesian Remi: draw or take, discard, close"):
    key = "remi"

    @property
    def controls(self) -> RemiControls:
        controls = self.variant.controls
        assert isinstance(controls, RemiControls)
        return controls

    @app_commands.command(name="new", description="Open an Indonesian Remi lobby in this "
                                                  "channel")
    @app_commands.describe(
        first_player="Who plays first in a deal: the dealer or the previous winner",
        target="The match ends when someone reaches this score",
        deals="Fixed number of deals (0 = play to the target)",
        turn_seconds="Turn timer in seconds (0 = none, else 30–600)",
        computers="Computer players to seat now", level=LEVEL_HELP,
        seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  first_player: Literal["dealer", "previous_winner"] | None = None,
                  target: app_commands.Range[int, 50, 5000] | None = None,
                  deals: app_commands.Range[int, 0, 50] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  computers: app_commands.Range[int, 0, 3] | None = None,
                  level: Level | None = None,
                  seed: int | None = None) -> None:
        values = dict(first_player=first_player, target=target, deals=deals,
                      turn_seconds=turn_seconds)
        await self.open_lobby(interaction, values, computers, seed, level)

    @app_commands.command(name="draw", description="Draw the top card of the stock")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, "stock"))

    @app_commands.command(name="take", description="Take one of the pile's top three cards with "
                                                   "cards that make a combination with it")
    @app_commands.rename(with_="with")
    @app_commands.describe(card="The pile card (positions 1–3 from the top)",
                           with_="Your cards that make a combination with it, e.g. 8H 9H")
    async def take(self, interaction: discord.Interaction, card: str, with_: str) -> None:
        def build(game, seat, read):
            picked = parse_single(card, game.notation).piece
            if not isinstance(picked, Card):
                raise IllegalMove(_("name the pile card by its code (like 7H), not {card}",
                                    card=repr(card)))
            return Take(seat, picked, tuple(RemiGame.own_all(read.cards(with_))))

        await self.play(interaction, build)

    @app_commands.command(name="discard", description="Discard a card and end your turn")
    @app_commands.describe(card="The card to discard (a code like 7H, or #3)")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, lambda game, seat, read: Discard(seat, read.card(card)))

    @app_commands.command(name="close", description="Close with a card: the rest of your hand "
                                                    "in combinations (asks to confirm)")
    @app_commands.describe(card="The closing card, which goes on the pile",
                           groups="Your combinations, e.g. 2S 3S 4S | 9C 9D 9H (left out: the "
                                  "bot finds them)")
    async def close(self, interaction: discord.Interaction, card: str,
                    groups: str | None = None) -> None:
        def build(game: Game, seat: int, read: Reader) -> Reply:
            assert isinstance(game, RemiGame), "the /remi commands act on Remi sessions"
            return self.controls.confirm_close(game, seat, game.own(read.card(card)),
                                               read.groups(groups) if groups else None)

        await self.play(interaction, build)

    @take.autocomplete("card")
    async def _pile(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        session = self.controller.session_for(interaction)
        game = session.game if session else None
        if not isinstance(game, RemiGame):
            return []
        return hand_choices(game.top_cards(), current, single=True)

    @take.autocomplete("with_")
    @close.autocomplete("groups")
    async def _cards(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)

    @discard.autocomplete("card")
    @close.autocomplete("card")
    async def _card(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)


async def setup(bot) -> None:
    await bot.add_cog(RemiCog(bot))
