"""Indian Rummy's buttons and confirmations (20-indian.md, UX.md).

The turn message carries *Draw closed*, *Take <card>* and *Drop*; the *My hand* panel adds
*Discard selected*, *Declare…* and *Check show*.

Two moves cost a lot when made by mistake, so they ask first, privately:

- **Declare** (a wrong show costs 80, IND-25): ``/indian declare`` and the *Declare…*
  button answer with the bot's reading of the show (valid, or the one-line reason
  it is wrong) and the buttons *Declare* and *Cancel*. A valid ``/indian check``
  after drawing offers *Declare with <card>* at once: the check was the preview.
- **Drop** from a button (20 or 40 points, IND-21): the public turn message is
  easy to misclick, so the button asks *Drop (20)* / *Cancel*. The typed
  ``/indian drop`` drops at once: typing the command is the confirmation.

A confirmation button carries the declaration in its ``custom_id`` as positions
in the engine's hand order (``t<turn>~<finish>~1-2-3|4-5=8H-6…``), stamped with
the turn, so nothing secret is in it and a stale one is refused. Cancel
replaces the question with one line; nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import QUESTION, SELECTION, SHOW, STAMP, Action, button, encode_positions, words
from ..engine.cards import Card, Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Discard, Draw
from ..engine.variants.indian import Declare, Drop, IndianGame, ShowVerdict
from ..i18n import _, _label, say
from ..ui import ButtonSpec
from .base import (
    Groups,
    Panel,
    Reply,
    check_stamp,
    confirm,
    decode_declaration,
    dismissed,
    encode_declaration,
    need_picked,
    turn_stamp,
)


def _verdict_line(verdict: ShowVerdict) -> str:
    return say(verdict.text)[:1500]


class IndianControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "draw": button(words("draw source", "closed", "open")), "drop": button(),
        "dropok": button(STAMP), "dismiss": button(QUESTION), "check": button(SELECTION),
        "confirm": button(SHOW), "discard": button(SELECTION), "declare": button(SELECTION)}

    # -- answers that are not moves ------------------------------------------------------

    def check_reply(self, game: Game, seat: int, *, finish: Piece | None = None,
                    groups: Groups | None = None) -> Reply:
        """``/indian check`` and *Check show*: the verdict, privately; nothing changes."""
        assert isinstance(game, IndianGame)
        can_declare = (game.to_move == seat and game.phase == "discard"
                       and game.active[seat])
        if isinstance(finish, Card) and groups is None and can_declare:
            verdict = game.declare_verdict(seat, finish, None)
        else:
            verdict = game.check_show(seat, groups)
        text = _("**Check** (only you see this; nothing changed): {verdict_line}.",
                 verdict_line=_verdict_line(verdict))
        if not (verdict.valid and can_declare and verdict.finish is not None):
            return Reply(text)
        arg, _sealed = encode_declaration(game, seat, verdict.finish, groups)
        return Reply(_("{text}\nDeclare now with **{card}**?",
                       text=text, card=verdict.finish.code), (
            ButtonSpec(_label("Declare with {card}", card=verdict.finish.code), "confirm", arg,
                       discord.ButtonStyle.success),))

    def confirm_declare(self, game: Game, seat: int, finish: Piece,
                        groups: Groups | None) -> Reply:
        """A declaration previewed: the bot's reading and *Declare* / *Cancel*."""
        assert isinstance(game, IndianGame) and isinstance(finish, Card)
        verdict = game.declare_verdict(seat, finish, groups)  # refuses as the move would
        arg, bare = encode_declaration(game, seat, finish, groups)
        if bare:  # the stand-ins did not fit in the button: judge what the button declares
            verdict = game.declare_verdict(seat, finish, decode_declaration(game, seat, arg)[1])
        lines = [_("**Declare with {card}?**", card=finish.code)]
        if verdict.valid:
            lines.append(_("The bot reads your show as: {verdict_line}.",
                           verdict_line=_verdict_line(verdict)))
        else:
            lines.append(_("⚠️ This would be a **wrong show**: {verdict_line}.",
                           verdict_line=_verdict_line(verdict)))
            lines.append(_("A wrong show costs 80 points and takes you out of this deal."))
        if bare:
            lines.append(_("(Your joker stand-ins are left for the bot to choose.)"))
        return confirm("\n".join(lines), _label("Declare"), "confirm", arg, cancel="declare",
                       danger=not verdict.valid)

    def confirm_drop(self, game: IndianGame, seat: int) -> Reply:
        """The Drop button asks first (IND-21 costs), unless the drop would be refused."""
        if Drop(seat) not in game.legal_moves(seat):
            game.apply(Drop(seat))  # raises the refusal's one line ("draw first"…)
        first = not game.has_drawn[seat]
        cost = game.options.drop_costs[0 if first else 1]
        what = _("first drop") if first else _("middle drop")
        return confirm(_("**Drop this deal?** A {what} costs {cost} points; you sit out until "
                         "the next deal.", what=what, cost=cost), _label("Drop ({cost})",
                         cost=cost),
                                                                    "dropok", turn_stamp(game),
                       cancel="drop", danger=True)

    # -- buttons (Controls) ---------------------------------------------------------------

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, IndianGame)
        seat = game.to_move
        if seat is None or game.phase != "draw":
            return []
        legal = game.legal_moves(seat)
        buttons = [ButtonSpec(_label("Draw closed"), "draw", "closed", discord.ButtonStyle.success,
                              disabled=Draw(seat, "closed") not in legal)]
        if game.open:  # a joker on the open deck cannot be taken (IND-18)
            buttons.append(ButtonSpec(_label("Take {card}", card=game.open[-1].code), "draw",
                                      "open", disabled=Draw(seat, "open") not in legal))
        buttons.append(ButtonSpec(_label("Drop"), "drop", style=discord.ButtonStyle.danger))
        return buttons

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, IndianGame)
        if game.is_over:
            return Panel(_("The game is over."))
        if game.eliminated[seat]:
            return Panel(_("You are out of this pool."))
        if not game.active[seat]:
            return Panel(_("You are out of this deal; you are dealt in again at the next one."))
        arg = encode_positions(selected)
        check = ButtonSpec(_label("Check show"), "check", arg if game.phase == "discard" else "",
                           emoji="🔍")
        if game.to_move != seat:
            return Panel(_("It is not your turn yet. Check show asks the bot, privately, "
                           "whether your hand would be a valid show."), (check,))
        if game.phase == "draw":
            return Panel(_("Draw a card first (or drop this deal)."),
                         (*self.turn_buttons(game), check))
        one = len(selected) == 1
        buttons = (
            ButtonSpec(_label("Discard selected"), "discard", arg, discord.ButtonStyle.primary,
                       disabled=not one),
            ButtonSpec(_label("Declare…"), "declare", arg, discord.ButtonStyle.success,
                       disabled=not one),
            check,
        )
        hint = (_("Pick one card: Discard it to end your turn, or Declare with it as your "
                  "finish card. Check show tells you, privately, whether you can show.") if not one
                else "")
        return Panel(hint, buttons)

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, IndianGame)
        if action == "draw":
            return Draw(seat, arg)
        if action == "drop":
            return self.confirm_drop(game, seat)
        if action == "dropok":
            check_stamp(game, arg)
            return Drop(seat)
        if action == "dismiss":
            return dismissed(arg)
        if action == "check":
            return self.check_reply(game, seat, finish=picked[0] if len(picked) == 1 else None)
        if action == "confirm":
            finish, groups = decode_declaration(game, seat, arg)
            return Declare(seat, IndianGame.own(finish), groups)
        if action in ("discard", "declare"):
            need_picked(picked, 1, _("discard") if action == "discard" else _("finish with"))
            if action == "discard":
                return Discard(seat, picked[0])
            return self.confirm_declare(game, seat, picked[0], None)
        raise IllegalMove(_("that button is not part of Indian Rummy"))
