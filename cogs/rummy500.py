"""``/rummy500``: Rummy 500 lobbies and typed moves (80-rummy500.md FHR-34, UX.md).

Moves: ``draw``, ``take card [with] [meld] [pos]`` (any pile card with every
card above it, used at once in a new meld or a lay-off), ``meld cards``,
``layoff cards meld``, ``discard card`` (the last three :class:`~cogs.base.MeldingCog`'s).
Buttons and the hand panel are
:mod:`bot.controls.rummy500`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.engine.cards import Card
from bot.engine.errors import IllegalMove
from bot.engine.game import Game
from bot.engine.moves import Draw, Take
from bot.engine.notation import CARDS, parse_list, parse_single
from bot.engine.variants.rummy500 import Rummy500Game

from .base import MeldingCog, Reader, hand_choices


class Rummy500Cog(MeldingCog, group_name="rummy500",
                  group_description="Rummy 500: draw or take from the spread pile, meld, lay "
                                    "off, discard"):
    key = "rummy500"

    @app_commands.command(name="new", description="Open a Rummy 500 lobby in this channel")
    @app_commands.describe(
        decks="Packs: auto (one for 2–4 players, two for 5–8), 1 or 2",
        jokers="Add 2 jokers per pack", two_player_deal="Cards each with two players",
        aces="both: A-2-3 or Q-K-A; around: K-A-2 too (every ace 15)",
        free_top_card="The top pile card may be taken without using it at once",
        discard_to_go_out="Going out needs a final discard",
        stock_out="Empty stock: play on from the pile, reshuffle it, or end the hand",
        target="The game ends once a score reaches this",
        hands="Fixed number of hands (overrides target)",
        finish="At the target: highest score wins, or the player who went out",
        turn_seconds="Turn timer in seconds (0 = none, else 10–600)",
        computers="Computer players to seat now", seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  decks: Literal["auto", "1", "2"] | None = None,
                  jokers: bool | None = None,
                  two_player_deal: Literal[10, 13] | None = None,
                  aces: Literal["both", "around"] | None = None,
                  free_top_card: bool | None = None,
                  discard_to_go_out: bool | None = None,
                  stock_out: Literal["pile", "reshuffle", "end"] | None = None,
                  target: app_commands.Range[int, 100, 5000] | None = None,
                  hands: app_commands.Range[int, 1, 50] | None = None,
                  finish: Literal["highest", "went_out"] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  computers: app_commands.Range[int, 0, 7] | None = None,
                  seed: int | None = None) -> None:
        values = dict(decks=decks, jokers=jokers, two_player_deal=two_player_deal, aces=aces,
                      free_top_card=free_top_card, discard_to_go_out=discard_to_go_out,
                      stock_out=stock_out, target=target, hands=hands, finish=finish,
                      turn_seconds=turn_seconds)
        await self.open_lobby(interaction, values, computers, seed)

    @app_commands.command(name="draw", description="Draw the top card of the stock")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, "stock"))

    @app_commands.command(name="take", description="Take a pile card with every card above "
                                                   "it, and use it at once")
    @app_commands.rename(with_="with")
    @app_commands.describe(card="The pile card to pick (a code like 5H)",
                           with_="Cards that make a new meld with it (yours, or taken with it)",
                           meld="Or: the meld to lay it off on (with any cards named in with)",
                           pos="Which copy, by pile position (1 = top), when there are two")
    async def take(self, interaction: discord.Interaction, card: str, with_: str | None = None,
                   meld: app_commands.Range[int, 1, 500] | None = None,
                   pos: app_commands.Range[int, 1, 120] | None = None) -> None:
        def build(game: Game, seat: int, read: Reader) -> Take:
            picked = parse_single(card, game.notation).piece
            if not isinstance(picked, Card):
                raise IllegalMove(f"name the pile card by its code (like 5H), not {card!r}")
            game.check_piece(picked)
            # Codes may name cards still in the pile (they reach the hand first, FHR-18);
            # ``#n`` names a card of the hand as last shown (NOT-7).
            cards = []
            for ref in parse_list(with_, CARDS) if with_ else []:
                piece = ref.piece if ref.piece is not None else read.card(ref.text)
                if not isinstance(piece, Card):
                    raise IllegalMove(f"{ref.text} is not a card")
                cards.append(piece)
            return Take(seat, picked, tuple(cards), meld, pos)

        await self.play(interaction, build)

    @take.autocomplete("card")
    async def _pile(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        session = self.controller.session_for(interaction)
        game = session.game if session else None
        if not isinstance(game, Rummy500Game):
            return []
        return hand_choices(game.top_cards(len(game.pile)), current, single=True)

    @take.autocomplete("with_")
    async def _cards(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)


async def setup(bot) -> None:
    await bot.add_cog(Rummy500Cog(bot))
