"""Tile Rummy's buttons (60-tiles.md, UX.md): a staged table edited in the turn, then *Done*.

The staged table is public, as on a real table: the turn message shows it as it
changes, changed melds marked, with *Done*, *Draw* and *Undo*. The *My rack*
panel picks rack tiles (two menus past 25 tiles), then *New meld*, a menu of
the staged melds that take them, *Arrange* (the engine places them, changing
the fewest melds, TIL-20), a *Free a joker* menu where the picked tile can
release one, and a menu of tiles placed this turn to take back. Moving and
splitting table tiles by hand are typed (`/tiles move`, `/tiles split`); a
phone player rearranges with *Arrange*.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import MELD, NOTHING, PLACED, SELECTION, Action, button, encode_positions, select
from ..engine.cards import Piece, Tile
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Done, Draw, placed
from ..engine.serial import piece_from_code
from ..engine.variants.tiles import Arrange, Play, Release, Reset, Take, TilesGame
from ..i18n import _, _label, _option
from ..texts import meld_text
from ..ui import SELECT_LIMIT, ButtonSpec, SelectSpec
from .base import Panel, Reply, need_picked


class TilesControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "done": button(), "draw": button(), "undo": button(), "play": button(SELECTION),
        "arrange": button(SELECTION), "add": select(SELECTION, MELD),
        "release": select(SELECTION, MELD), "take": select(NOTHING, PLACED)}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, TilesGame)
        if game.to_move is None:
            return []
        return [ButtonSpec(_label("Done"), "done", style=discord.ButtonStyle.success),
                ButtonSpec(_label("Draw"), "draw"),
                ButtonSpec(_label("Undo"), "undo", style=discord.ButtonStyle.danger)]

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, TilesGame)
        if game.is_over:
            return Panel(_("The game is over."))
        if game.to_move != seat:
            return Panel(_("It is not your turn yet."))
        arg = encode_positions(selected)
        picked = [order[p - 1] for p in selected if 0 < p <= len(order)]
        tiles = [p for p in picked if isinstance(p, Tile)]
        buttons = (
            ButtonSpec(_label("New meld"), "play", arg, discord.ButtonStyle.primary,
                       disabled=not selected),
            ButtonSpec(_label("Arrange"), "arrange", arg, discord.ButtonStyle.primary,
                       disabled=not selected, emoji="🧩"),
            *self.turn_buttons(game),
        )
        selects = [s for s in (add_select(game, seat, tiles, arg),
                               release_select(game, seat, tiles, arg),
                               take_select(game, seat)) if s is not None]
        hint = (_("Pick rack tiles, then New meld, add them to a meld, or Arrange (the bot "
                  "places them, rearranging the table). Done ends your turn; Draw takes a "
                  "tile instead; Undo puts the table back.") if not selected else "")
        return Panel(hint, buttons, tuple(selects[:2]))

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, TilesGame)
        if action == "done":
            return Done(seat)
        if action == "draw":
            return Draw(seat, "pool")
        if action == "undo":
            return Reset(seat)
        if action == "take":
            code, _at, number = values[0].partition("@")
            tile = piece_from_code(code)
            assert isinstance(tile, Tile)
            return Take(seat, tile, int(number))
        need_picked(picked)
        tiles = tuple(game.own_all(picked))
        if action == "play":
            return Play(seat, placed(*tiles))
        if action == "add":
            return Play(seat, placed(*tiles), int(values[0]))
        if action == "arrange":
            return Arrange(seat, tiles)
        if action == "release":
            need_picked(picked, 1, _("free a joker with"))
            return Release(seat, tiles[0], int(values[0]))
        raise IllegalMove(_("that button is not part of Tile Rummy"))


def _works(game: TilesGame, move: Move) -> bool:
    try:
        game.apply(move)
    except IllegalMove:
        return False
    return True


def _grows_valid(game: TilesGame, play: Play, number: int) -> bool:
    """The play is accepted and leaves staged meld ``number`` a valid meld."""
    try:
        after, _events = game.apply(play)
    except IllegalMove:
        return False
    return all(v.kind != "invalid" for v in after.meld_views() if v.number == number)


def add_select(game: TilesGame, seat: int, tiles: Sequence[Tile], arg: str) -> SelectSpec | None:
    """*Add the picked tiles to meld…*: the staged melds that stay valid with them.

    The staged table takes any tiles anywhere (an invalid meld is only refused at
    *Done*), so the menu offers a meld only where the engine reads the grown meld
    as a valid run or set (the check ``Staged.takes`` makes for one tile).
    """
    if not tiles:
        return None
    views = {v.number: v for v in game.meld_views()}
    fits = [n for n in views if _grows_valid(game, Play(seat, placed(*tiles), n), n)]
    if not fits:
        return None
    return SelectSpec("add", _("Add the picked tiles to meld…"), tuple(
        (f"{n}: {meld_text(views[n], True)}", str(n)) for n in fits[-SELECT_LIMIT:]), arg)


def release_select(game: TilesGame, seat: int, tiles: Sequence[Tile],
                   arg: str) -> SelectSpec | None:
    """*Free a joker with the picked tile…* (TIL-17): the melds where it can."""
    if len(tiles) != 1 or tiles[0].is_joker:
        return None
    views = {v.number: v for v in game.meld_views()}
    fits = [n for n, v in views.items() if any(p.is_joker for p in v.pieces)
            and _works(game, Release(seat, tiles[0], n))]
    if not fits:
        return None
    return SelectSpec("release", _("Free a joker with {card} in meld…", card=tiles[0].code), tuple(
        (f"{n}: {meld_text(views[n], True)}", str(n)) for n in fits[-SELECT_LIMIT:]), arg)


def take_select(game: TilesGame, seat: int) -> SelectSpec | None:
    """*Take back a tile placed this turn…*: rack tiles now on the staged table."""
    options: dict[str, str] = {}
    for meld in game.staged:
        for tile, origin in zip(meld.tiles, meld.origins, strict=True):
            if origin in ("r", "rj"):  # placed from the rack this turn
                options[f"{tile.code}@{meld.number}"] = _option(
                    "{card} from meld {number}", card=tile.code, number=meld.number)
    if not options:
        return None
    return SelectSpec("take", _("Take back a tile placed this turn…"),
                      tuple((label, value) for value, label in options.items())[:SELECT_LIMIT])
