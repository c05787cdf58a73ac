"""Gin Rummy's buttons (70-gin.md GIN-40, UX.md).

The turn message carries *Take 9D* and *Draw* (or, on the upcard offer, *Take
9D* and *Pass*; at the wall *Pass*). In the *My hand* panel the player picks one
card and then *Discard selected* or *Knock with selected…*, which asks first:
the question shows the melds and deadwood the knock would lay (the engine's
grouping, GIN-12) and whether it is gin, with *Knock* / *Cancel*. A knock
with the player's own groups, and big gin, are typed (``/gin knock``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import QUESTION, SELECTION, SHOW, Action, button, encode_positions, words
from ..engine.cards import Card, Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Discard, Draw
from ..engine.variants.gin import GinGame, Knock, Pass
from ..ui import ButtonSpec
from .base import Groups, Panel, Reply, confirm, decode_declaration, dismissed, encode_declaration


class GinControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "draw": button(words("draw source", "stock", "discard")), "pass": button(),
        "discard": button(SELECTION), "knock": button(SELECTION), "knockok": button(SHOW),
        "dismiss": button(QUESTION)}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, GinGame)
        if game.to_move is None:
            return []
        top = game.pile[-1].code if game.pile else ""
        if game.phase == "offer":
            return [ButtonSpec(f"Take {top}", "draw", "discard", discord.ButtonStyle.success),
                    ButtonSpec("Pass", "pass")]
        if game.phase == "wall":
            return [ButtonSpec("Pass", "pass")]
        if game.phase != "draw":
            return []
        buttons = [ButtonSpec("Draw", "draw", "stock", discord.ButtonStyle.success)]
        if game.pile and game.offer != 3:
            buttons.append(ButtonSpec(f"Take {top}", "draw", "discard"))
        return buttons

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, GinGame)
        if game.is_over:
            return Panel("The game is over.")
        if game.to_move != seat:
            return Panel("It is not your turn yet.")
        if game.phase == "offer":
            return Panel(f"Take the upcard {game.pile[-1].code} or pass.",
                         tuple(self.turn_buttons(game)))
        if game.phase == "draw":
            return Panel("Draw first.", tuple(self.turn_buttons(game)))
        arg = encode_positions(selected)
        one = len(selected) == 1
        knock = ButtonSpec("Knock with selected…", "knock", arg, discord.ButtonStyle.success,
                           disabled=not one)
        if game.phase == "wall":
            return Panel(f"2 cards are left in the stock: pick the card to discard and knock "
                         f"with the upcard {game.pile[-1].code}, or pass.",
                         (knock, ButtonSpec("Pass", "pass")))
        buttons = (ButtonSpec("Discard selected", "discard", arg, discord.ButtonStyle.primary,
                              disabled=not one), knock)
        hint = "" if one else ("Pick one card: Discard it to end your turn, or Knock with it "
                               "(the rest of your hand laid in melds).")
        return Panel(hint, buttons)

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, GinGame)
        if action == "draw":
            return Draw(seat, arg)
        if action == "pass":
            return Pass(seat)
        if action == "knockok":
            card, groups = decode_declaration(game, seat, arg)
            assert isinstance(card, Card)
            return Knock(seat, card, groups)
        if action == "dismiss":
            return dismissed(arg)
        if len(picked) != 1:
            raise IllegalMove("pick exactly one card in the menu first")
        (card,) = picked
        if not isinstance(card, Card):
            raise IllegalMove("Gin Rummy is played with cards, not tiles")
        if action == "discard":
            return Discard(seat, card)
        if action == "knock":
            return self.confirm_knock(game, seat, card, None)
        raise IllegalMove("that button is not part of Gin Rummy")

    def confirm_knock(self, game: GinGame, seat: int, card: Card,
                      groups: Groups | None) -> Reply:
        """*Knock with selected…*: the melds and deadwood as the knock would score, then
        *Knock* / *Cancel* (refused at once, with the reason, when the knock is not legal)."""
        game.require_turn(seat)
        if game.phase in ("offer", "draw"):
            raise IllegalMove("draw first: you knock after drawing")
        preview = game.knock_preview(seat, card, groups)  # refuses as the move would
        arg, _ = encode_declaration(game, seat, card, groups)
        what = {"gin": "That is **gin**", "knock": "A knock"}[preview.kind]
        return confirm(f"**Knock with {card.code}?** {what}: {preview.grouping.text} "
                       f"(knock limit {game.knock_limit}).", "Knock", "knockok", arg,
                       cancel="knock")
