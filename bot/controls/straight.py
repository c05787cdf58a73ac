"""Straight Rummy's buttons: draw or take on the turn message; meld, lay off, discard in the
hand panel (UX.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import MELD, SELECTION, Action, button, encode_positions, select, words
from ..engine.cards import Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Discard, Draw, LayOff, MeldDown, placed
from ..engine.variants.straight import StraightGame
from ..i18n import _, _label
from ..ui import ButtonSpec, SelectSpec
from .base import Panel, Reply, layoff_select, meld_button, need_picked


class StraightControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "draw": button(words("draw source", "stock", "discard")),
        "meld": button(SELECTION), "discard": button(SELECTION),
        "layoff": select(SELECTION, MELD)}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, StraightGame)
        if game.phase != "draw":
            return []
        buttons = [ButtonSpec(_label("Draw from stock"), "draw", "stock",
                              discord.ButtonStyle.success)]
        if game.discard:
            buttons.append(ButtonSpec(_label("Take {card}", card=game.discard[-1].code), "draw",
                                        "discard"))
        return buttons

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, StraightGame)
        if game.is_over or game.to_move != seat:
            return Panel(_("It is not your turn yet."))
        if game.phase == "draw":
            return Panel(_("Draw first."), tuple(self.turn_buttons(game)))
        arg = encode_positions(selected)
        buttons = (
            meld_button(arg, len(selected)),
            ButtonSpec(_label("Discard selected"), "discard", arg, discord.ButtonStyle.danger,
                       disabled=len(selected) != 1),
        )
        layoff = layoff_select((m.view() for m in game.table), arg) if selected else None
        selects: tuple[SelectSpec, ...] = (layoff,) if layoff else ()
        hint = (_("Pick cards, then Meld (3 or more), Lay off onto a meld, or Discard one to "
                  "end your turn.") if not selected else "")
        return Panel(hint, buttons, selects)

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        if action == "draw":
            return Draw(seat, arg)
        need_picked(picked)
        if action == "meld":
            return MeldDown(seat, (placed(*picked),))
        if action == "discard":
            need_picked(picked, 1, _("discard"))
            return Discard(seat, picked[0])
        if action == "layoff":
            return LayOff(seat, placed(*picked), int(values[0]))
        raise IllegalMove(_("that button is not part of Straight Rummy"))
