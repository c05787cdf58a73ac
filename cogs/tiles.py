"""``/tiles``: Tile Rummy lobbies and typed moves on the staged table (60-tiles.md, UX.md).

A turn edits a staged table, public as on a real table: ``play`` rack tiles into
a new meld or meld N, ``arrange`` (the engine places the named rack tiles,
changing the fewest melds), ``move`` a table tile, ``split`` a meld, ``release``
a joker with the tile it stands for, ``take`` back a tile placed this turn,
``undo``; then ``done`` (checked) or ``draw``. Buttons and the rack panel are
:mod:`bot.controls.tiles`.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.engine.cards import Tile
from bot.engine.errors import IllegalMove
from bot.engine.moves import Done, Draw
from bot.engine.notation import parse_single
from bot.engine.variants.tiles import Arrange, MoveTile, Play, Release, Reset, Split, Take
from bot.i18n import _

from .base import LEVEL_HELP, Level, VariantCog


def table_tile(text: str, game) -> Tile:
    """A tile named by its code (a table tile: it is not read from the rack)."""
    piece = parse_single(text, game.notation).piece
    if not isinstance(piece, Tile):
        raise IllegalMove(_("name the table tile by its code (like R7 or JK), not {text}",
                            text=repr(text)))
    return piece


class TilesCog(VariantCog, group_name="tiles",
               group_description="Tile Rummy: play, arrange, move, split, done or draw"):
    key = "tiles"

    @app_commands.command(name="new", description="Open a Tile Rummy lobby in this channel")
    @app_commands.describe(
        initial_meld="Least total of your first melds (0 = none)",
        joker_retrieve="How a table joker may be freed: free, replace, replace_from_rack",
        joker_locks_meld="A meld holding a joker cannot lose tiles",
        retrieved_joker_new_meld_only="A freed joker only goes into a meld of rack tiles",
        invalid_done="An invalid done is refused (reject) or costs 3 tiles (penalty)",
        turn_seconds="Turn timer in seconds (0 = none, else 20–600)",
        games="Games in the match", target="Play until a total reaches this (0 = off)",
        computers="Computer players to seat now", level=LEVEL_HELP,
        seed="Fix the shuffle (for replays)")
    async def new(self, interaction: discord.Interaction,
                  initial_meld: app_commands.Range[int, 0, 100] | None = None,
                  joker_retrieve: Literal["free", "replace", "replace_from_rack"] | None = None,
                  joker_locks_meld: bool | None = None,
                  retrieved_joker_new_meld_only: bool | None = None,
                  invalid_done: Literal["reject", "penalty"] | None = None,
                  turn_seconds: app_commands.Range[int, 0, 600] | None = None,
                  games: app_commands.Range[int, 1, 20] | None = None,
                  target: app_commands.Range[int, 0, 5000] | None = None,
                  computers: app_commands.Range[int, 0, 3] | None = None,
                  level: Level | None = None,
                  seed: int | None = None) -> None:
        values = dict(initial_meld=initial_meld, joker_retrieve=joker_retrieve,
                      joker_locks_meld=joker_locks_meld,
                      retrieved_joker_new_meld_only=retrieved_joker_new_meld_only,
                      invalid_done=invalid_done, turn_seconds=turn_seconds, games=games,
                      target=target)
        await self.open_lobby(interaction, values, computers, seed, level)

    @app_commands.command(name="play", description="Put rack tiles in a new meld, or in meld N")
    @app_commands.describe(tiles="Rack tiles (codes like R7 B7 K7, or #positions)",
                           meld="The staged meld to add them to (left out: a new meld)")
    async def play_(self, interaction: discord.Interaction, tiles: str,
                    meld: app_commands.Range[int, 1, 500] | None = None) -> None:
        await self.play(interaction,
                        lambda game, seat, read: Play(seat, read.placed(tiles), meld))

    @app_commands.command(name="arrange", description="Let the bot place rack tiles, changing "
                                                      "the fewest melds")
    @app_commands.describe(tiles="Rack tiles to place")
    async def arrange(self, interaction: discord.Interaction, tiles: str) -> None:
        await self.play(interaction, lambda game, seat, read: Arrange(
            seat, tuple(game.own_all(read.cards(tiles)))))

    @app_commands.command(name="move", description="Move a table tile to another meld")
    @app_commands.describe(tile="The table tile (its code)", from_meld="The meld it is in",
                           to_meld="The meld it goes to")
    async def move(self, interaction: discord.Interaction, tile: str,
                   from_meld: app_commands.Range[int, 1, 500],
                   to_meld: app_commands.Range[int, 1, 500]) -> None:
        await self.play(interaction, lambda game, seat, read: MoveTile(
            seat, table_tile(tile, game), from_meld, to_meld))

    @app_commands.command(name="split", description="Split a meld in two")
    @app_commands.describe(meld="The meld to split", at="How many tiles stay in the first part")
    async def split(self, interaction: discord.Interaction,
                    meld: app_commands.Range[int, 1, 500],
                    at: app_commands.Range[int, 1, 12]) -> None:
        await self.play(interaction, lambda game, seat, read: Split(seat, meld, at))

    @app_commands.command(name="release", description="Free a joker with the tile it stands "
                                                      "for")
    @app_commands.describe(tile="Your rack tile the joker stands for", meld="The joker's meld")
    async def release(self, interaction: discord.Interaction, tile: str,
                      meld: app_commands.Range[int, 1, 500]) -> None:
        await self.play(interaction, lambda game, seat, read: Release(
            seat, game.own(read.card(tile)), meld))

    @app_commands.command(name="take", description="Take back a tile you placed this turn")
    @app_commands.describe(tile="The tile (its code)")
    async def take(self, interaction: discord.Interaction, tile: str) -> None:
        await self.play(interaction,
                        lambda game, seat, read: Take(seat, table_tile(tile, game)))

    @app_commands.command(name="undo", description="Put the table back as it was at the start "
                                                   "of your turn")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Reset(seat))

    @app_commands.command(name="done", description="End your turn (the staged table is checked)")
    async def done(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Done(seat))

    @app_commands.command(name="draw", description="Draw a tile from the pool and end your turn")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, lambda game, seat, read: Draw(seat, "pool"))

    @play_.autocomplete("tiles")
    @arrange.autocomplete("tiles")
    async def _tiles(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current)

    @release.autocomplete("tile")
    async def _tile(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_cards(interaction, current, single=True)


async def setup(bot) -> None:
    await bot.add_cog(TilesCog(bot))
