"""Straight Rummy's buttons: draw or take on the turn message; meld, lay off, discard in the
hand panel (UX.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import Action, button, words
from ..engine.cards import Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Draw
from ..engine.variants.straight import StraightGame
from ..ui import ButtonSpec
from .base import MELDING_ACTIONS, Panel, Reply, melding_move, melding_panel


class StraightControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "draw": button(words("draw source", "stock", "discard")), **MELDING_ACTIONS}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, StraightGame)
        if game.phase != "draw":
            return []
        buttons = [ButtonSpec("Draw from stock", "draw", "stock",
                              discord.ButtonStyle.success)]
        if game.discard:
            buttons.append(ButtonSpec(f"Take {game.discard[-1].code}", "draw", "discard"))
        return buttons

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, StraightGame)
        if game.is_over or game.to_move != seat:
            return Panel("It is not your turn yet.")
        if game.phase == "draw":
            return Panel("Draw first.", tuple(self.turn_buttons(game)))
        return melding_panel((m.view() for m in game.table), selected,
                             "Pick cards, then Meld (3 or more), Lay off onto a meld, or "
                             "Discard one to end your turn.")

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        if action == "draw":
            return Draw(seat, arg)
        move = melding_move(seat, action, picked, values)
        if move is None:
            raise IllegalMove("that button is not part of Straight Rummy")
        return move
