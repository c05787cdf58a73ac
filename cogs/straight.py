"""``/straight``: Straight Rummy lobbies and typed moves (10-straight.md, UX.md).

``meld``, ``layoff`` and ``discard`` are :class:`~cogs.base.MeldingCog`'s. Its buttons
are :mod:`bot.controls.straight`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.engine.moves import Draw

from .base import MeldingCog


class StraightCog(MeldingCog, group_name="straight",
                  group_description="Straight Rummy: draw, meld, lay off, discard"):
    key = "straight"

    @app_commands.command(name="new", description="Open a Straight Rummy lobby in this "
                                                  "channel")
    @app_commands.describe(
        one_meld_per_turn="At most one new meld per turn",
        meld_before_layoff="No lay-off before a meld of your own",
        no_discard_of_taken_card="A card taken from the discard pile cannot be discarded "
                                 "that turn",
        stock_out="What an empty stock does", rummy_bonus="Going rummy: payments ×2 or +10",
        aces="Where aces go in runs (ace is worth 15 unless low)",
        discard_to_go_out="Going out needs a final discard",
        penalty_scoring="Your own hand value is a penalty; lowest score wins",
        target="Match ends when someone reaches this score",
        hands="Fixed number of hands (overrides target)",
        turn_seconds="Turn timer in seconds (0 = none, else 10–600)",
        computers="Computer players to seat now", seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  one_meld_per_turn: bool | None = None,
                  meld_before_layoff: bool | None = None,
                  no_discard_of_taken_card: bool | None = None,
                  stock_out: Literal["reshuffle", "end"] | None = None,
                  rummy_bonus: Literal["double", "ten"] | None = None,
                  aces: Literal["low", "high", "both", "around"] | None = None,
                  discard_to_go_out: bool | None = None,
                  penalty_scoring: bool | None = None,
                  target: app_commands.Range[int, 1, 10000] | None = None,
                  hands: app_commands.Range[int, 1, 100] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  computers: app_commands.Range[int, 0, 5] | None = None,
                  seed: int | None = None) -> None:
        values = dict(one_meld_per_turn=one_meld_per_turn, meld_before_layoff=meld_before_layoff,
                      no_discard_of_taken_card=no_discard_of_taken_card, stock_out=stock_out,
                      rummy_bonus=rummy_bonus, aces=aces, discard_to_go_out=discard_to_go_out,
                      penalty_scoring=penalty_scoring, target=target, hands=hands,
                      turn_seconds=turn_seconds)
        await self.open_lobby(interaction, values, computers, seed)

    @app_commands.command(name="draw", description="Draw from the stock or take the top "
                                                   "discard")
    @app_commands.describe(source="stock (face down) or discard (the face-up card)")
    async def draw(self, interaction: discord.Interaction,
                   source: Literal["stock", "discard"]) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, source))


async def setup(bot) -> None:
    await bot.add_cog(StraightCog(bot))
