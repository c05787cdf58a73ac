"""Singapore Rummi's buttons (40-rummi.md, UX.md): one play at a time.

A play lays a new 3-card meld or adds one card to a table meld. The *My hand*
panel picks cards, then *Play selected* (three cards: a new meld) or a menu of
the melds the one picked card can be added to. With ``plays_per_turn`` =
``many`` the turn message and the panel carry *Done*.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import MELD, SELECTION, Action, button, encode_positions, select
from ..engine.cards import Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Done, LayOff, MeldDown, placed
from ..engine.variants.rummi import RummiGame, add_targets, is_new_meld
from ..i18n import _, _label
from ..ui import ButtonSpec, SelectSpec
from .base import Panel, Reply, layoff_select, need_picked


class RummiControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "done": button(), "meld": button(SELECTION), "layoff": select(SELECTION, MELD)}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, RummiGame)
        if game.to_move is None or game.options.plays_per_turn != "many":
            return []
        return [ButtonSpec(_label("Done"), "done", style=discord.ButtonStyle.success,
                           disabled=game.actions == 0)]

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, RummiGame)
        if game.is_over:
            return Panel(_("The game is over."))
        if game.out[seat]:
            return Panel(_("You are out of this game: your cards count at the settlement."))
        if game.to_move != seat:
            return Panel(_("It is not your turn yet."))
        arg = encode_positions(selected)
        picked = [order[p - 1] for p in selected if 0 < p <= len(order)]
        three = len(picked) == 3 and is_new_meld(game, seat, picked)
        buttons = (ButtonSpec(_label("Play selected"), "meld", arg, discord.ButtonStyle.success,
                              disabled=not three), *self.turn_buttons(game))
        selects: tuple[SelectSpec, ...] = ()
        if len(picked) == 1:
            takers = set(add_targets(game, seat, picked[0]))
            menu = layoff_select((m.view() for m in game.table if m.number in takers), arg)
            if menu is not None:
                selects = (SelectSpec("layoff", _("Add {card} to meld…", card=picked[0].code),
                                                  menu.options,
                                      arg),)
        if not game.passport[seat]:
            hint = _("Your first play must be a new 3-card sequence (your passport): pick 3 "
                     "cards.")
        elif len(picked) == 1 and not selects:
            hint = _("No meld on the table takes {card}.", card=picked[0].code)
        elif len(picked) == 3 and not three:
            hint = _("Those three cards are not a meld you may lay now.")
        else:
            hint = _("Pick 3 cards for a new meld, or 1 card to add to a meld on the table.")
        return Panel(hint, buttons, selects)

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, RummiGame)
        if action == "done":
            return Done(seat)
        need_picked(picked)
        if action == "meld":
            return MeldDown(seat, (placed(*picked),))
        if action == "layoff":
            need_picked(picked, 1, _("add"))
            return LayOff(seat, placed(*picked), int(values[0]))
        raise IllegalMove(_("that button is not part of Rummi"))
