"""Penang Rummy's buttons (30-penang.md, UX.md): a turn of many actions ended by *Done*.

The turn message carries *Done* and *Dead…* (which asks first: being Dead
ends your game). The *My hand* panel offers *Meld selected*, a menu of the
table melds that take the selected cards as one lay-off, and a *Swap for
joker* menu listing only the substitutions legal now, so a phone player plays
a whole turn without typing a code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import (
    MELD,
    NOTHING,
    PLACED,
    QUESTION,
    SELECTION,
    STAMP,
    Action,
    button,
    encode_positions,
    select,
)
from ..engine.cards import Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Done, LayOff, MeldDown, Swap, placed
from ..engine.serial import piece_from_code
from ..engine.variants.penang import DeclareDead, PenangGame, layoff_melds, list_swaps
from ..i18n import _, _label, _option
from ..texts import meld_text
from ..ui import SELECT_LIMIT, ButtonSpec, SelectSpec
from .base import (
    Panel,
    Reply,
    check_stamp,
    confirm,
    dismissed,
    layoff_select,
    meld_button,
    need_picked,
    turn_stamp,
)


class PenangControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "done": button(), "dead": button(), "deadok": button(STAMP), "dismiss": button(QUESTION),
        "meld": button(SELECTION), "layoff": select(SELECTION, MELD),
        "swap": select(NOTHING, PLACED)}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, PenangGame)
        if game.to_move is None:
            return []
        return [ButtonSpec(_label("Done"), "done", style=discord.ButtonStyle.success,
                           disabled=game.actions == 0),
                ButtonSpec(_label("Dead…"), "dead", style=discord.ButtonStyle.danger)]

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, PenangGame)
        if game.is_over:
            return Panel(_("The game is over."))
        if game.out[seat]:
            return Panel(_("You are Dead this game: your cards count against you at the end."))
        if game.to_move != seat:
            return Panel(_("It is not your turn yet."))
        arg = encode_positions(selected)
        picked = [order[p - 1] for p in selected if 0 < p <= len(order)]
        buttons = (meld_button(arg, len(selected)), *self.turn_buttons(game))
        selects: list[SelectSpec] = []
        takers = set(layoff_melds(game, seat, picked)) if picked else set()
        layoff = layoff_select((m.view() for m in game.table if m.number in takers), arg)
        if layoff is not None:
            selects.append(layoff)
        swaps = swap_select(game, seat)
        if swaps is not None:
            selects.append(swaps)
        if not game.passport[seat]:
            hint = _("Your first action must be a new meld (your passport): pick 3 or more "
                     "cards.")
        elif selected and layoff is None and len(selected) < 3:
            hint = _("No meld on the table takes the selected cards together.")
        else:
            hint = (_("Pick cards, then Meld them or lay them off on a meld; Swap takes a "
                      "joker for a card of yours. Done ends your turn."))
        return Panel(hint, buttons, tuple(selects))

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, PenangGame)
        if action == "done":
            return Done(seat)
        if action == "dead":
            if game.to_move != seat:
                game.apply(DeclareDead(seat))  # raises the refusal ("not your turn"…)
            return confirm(_("**Declare yourself Dead?** You make no more plays this game and "
                             "the cards you hold count against you."), _label("Dead"), "deadok",
                           turn_stamp(game), cancel="dead", danger=True)
        if action == "deadok":
            check_stamp(game, arg)
            return DeclareDead(seat)
        if action == "dismiss":
            return dismissed(arg)
        if action == "swap":
            code, _at, number = values[0].partition("@")
            return Swap(seat, piece_from_code(code), int(number))
        need_picked(picked)
        if action == "meld":
            return MeldDown(seat, (placed(*picked),))
        if action == "layoff":
            return LayOff(seat, placed(*picked), int(values[0]))
        raise IllegalMove(_("that button is not part of Penang Rummy"))


def swap_select(game: PenangGame, seat: int) -> SelectSpec | None:
    """*Swap for joker*: every legal substitution now (PEN-16), at most 25."""
    swaps = list_swaps(game, seat)
    if not swaps:
        return None
    melds = {m.number: m for m in game.table}
    unique = {f"{s.card.code}@{s.meld}": s for s in swaps}  # copies of a card swap alike
    options = tuple((_option("{card} for the joker in {meld}: {cards}", card=s.card.code,
                             meld=s.meld, cards=meld_text(melds[s.meld].view(), False)), value)
                    for value, s in list(unique.items())[:SELECT_LIMIT])
    return SelectSpec("swap", _("Swap a card for a joker…"), options)
