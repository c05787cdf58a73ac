"""Indonesian Remi's buttons (50-remi.md, UX.md): draw, take from the spread pile, discard,
close.

The turn message offers *Draw* and *Take 1/2/3* for the pile positions some
hand could still use (public information only: :meth:`RemiGame.open_positions`);
a Take button takes that card with the hand cards that fit it when there is one
way, and asks which when there are several. In the *My hand* panel the player
picks hand cards and then *Take with selected* (a menu of the top three that
work with them), *Discard selected* or *Close with selected*, which asks first
and shows the combinations the close would expose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import (
    OFFER,
    PILE,
    POSITION,
    QUESTION,
    SELECTION,
    SHOW,
    Action,
    button,
    encode_positions,
    select,
)
from ..engine.cards import Card, Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.moves import Discard, Draw
from ..engine.notation import remove_pieces
from ..engine.variants.remi import Close, RemiGame, Take, has_sequence
from ..i18n import _, _label, _n, _option
from ..ui import ButtonSpec, SelectSpec
from .base import (
    Groups,
    Panel,
    Reply,
    confirm,
    decode_declaration,
    dismissed,
    encode_declaration,
    need_picked,
)


class RemiControls:
    actions: ClassVar[Mapping[str, Action]] = {
        "draw": button(), "take": button(PILE), "takeit": button(OFFER),
        "discard": button(SELECTION), "close": button(SELECTION), "confirm": button(SHOW),
        "discardok": button(SHOW), "dismiss": button(QUESTION),
        "takewith": select(SELECTION, POSITION)}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, RemiGame)
        if game.to_move is None or game.phase != "acquire":
            return []
        top = game.top_cards()
        return [ButtonSpec(_label("Draw"), "draw", style=discord.ButtonStyle.success),
                *(ButtonSpec(_label("Take {position}: {card}", position=p,
                                 card=top[p - 1].code), "take", str(p))
                  for p in game.open_positions())]

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, RemiGame)
        if game.is_over:
            return Panel(_("The game is over."))
        if game.to_move != seat:
            return Panel(_("It is not your turn yet."))
        arg = encode_positions(selected)
        picked = [order[p - 1] for p in selected if 0 < p <= len(order)]
        if game.phase == "acquire":
            buttons = tuple(self.turn_buttons(game))
            cards = [c for c in picked if isinstance(c, Card)]
            positions = game.positions_for(seat, cards) if len(cards) >= 2 else []
            top = game.top_cards()
            selects = (SelectSpec("takewith", _("Take a pile card with the selected cards…"), tuple(
                (_option("Take {position}: {card} with {cards}", position=p,
                         card=top[p - 1].code, cards=" ".join(c.code for c in cards)), str(p))
                for p in positions), arg),) if positions else ()
            hint = (_("Draw, or pick 2 or more cards that make a combination with one of the "
                      "pile's top three cards and take it."))
            if len(cards) >= 2 and not positions:
                hint = _("None of the pile's top three cards makes a combination with those "
                         "cards.")
            return Panel(hint, buttons, selects)
        one = len(selected) == 1
        buttons = (
            ButtonSpec(_label("Discard selected"), "discard", arg, discord.ButtonStyle.primary,
                       disabled=not one),
            ButtonSpec(_label("Close with selected…"), "close", arg, discord.ButtonStyle.success,
                       disabled=not one),
        )
        hint = "" if one else (_("Pick one card: Discard it to end your turn, or Close with "
                                 "it (the rest of your hand shown in combinations)."))
        return Panel(hint, buttons)

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, RemiGame)
        if action == "draw":
            return Draw(seat, "stock")
        if action == "take":
            return self.take_from_button(game, seat, int(arg))
        if action == "takeit":
            position, _sep, codes = arg.partition("~")
            return self.take_named(game, seat, int(position), codes.split("-"))
        if action == "takewith":
            need_picked(picked)
            return Take(seat, game.top_cards()[int(values[0]) - 1], _cards(picked))
        if action == "confirm":
            card, groups = decode_declaration(game, seat, arg)
            assert isinstance(card, Card)
            return Close(seat, card, groups)
        if action == "discardok":
            card, _groups = decode_declaration(game, seat, arg)
            assert isinstance(card, Card)
            return Discard(seat, card)
        if action == "dismiss":
            return dismissed(arg)
        need_picked(picked, 1, _("discard") if action == "discard" else _("close with"))
        (card,) = _cards(picked)
        if action == "discard":
            return self.confirm_discard(game, seat, card) or Discard(seat, card)
        if action == "close":
            return self.confirm_close(game, seat, card, None)
        raise IllegalMove(_("that button is not part of Remi"))

    # -- takes from the turn message --------------------------------------------------

    def take_from_button(self, game: RemiGame, seat: int, position: int) -> Move | Reply:
        """*Take N*: the take itself when the hand fits the card one way; else ask which."""
        top = game.top_cards()
        if not 1 <= position <= len(top):
            raise IllegalMove(_("that pile position is out of date: look at the table again"))
        card = top[position - 1]
        options = [t for t in game.takes(seat) if t.card == card]
        if not options:
            raise IllegalMove(_("no cards of yours make a combination with {card} that you "
                                "may take now: draw, or see /rummy rules remi", card=card.code))
        if len(options) == 1:
            return options[0]
        buttons = tuple(ButtonSpec(_label("With {cards}",
                                          cards=" ".join(c.code for c in t.with_cards)),
                                   "takeit",
                                   f"{position}~" + "-".join(c.code for c in t.with_cards))
                        for t in options[:5])
        return Reply(_("Take **{card}** with which cards?", card=card.code), buttons)

    @staticmethod
    def take_named(game: RemiGame, seat: int, position: int, codes: list[str]) -> Move:
        top = game.top_cards()
        if not 1 <= position <= len(top):
            raise IllegalMove(_("that pile position is out of date: look at the table again"))
        hand = list(game.hands[seat])
        with_cards = []
        for code in codes:
            card = next((c for c in hand if c.code == code), None)
            if card is None:
                raise IllegalMove(_("that question is out of date: your hand changed"))
            hand.remove(card)
            with_cards.append(card)
        return Take(seat, top[position - 1], tuple(with_cards))

    # -- closing asks first -------------------------------------------------------------

    def confirm_close(self, game: RemiGame, seat: int, card: Card,
                      groups: Groups | None) -> Reply:
        """A close previewed: the combinations it exposes, the table ones beside them, and
        the deal's score they make up (REM-24, REM-25), then Close / Cancel."""
        if game.to_move != seat:
            game.apply(Close(seat, card, groups))  # raises the refusal ("not your turn"…)
        if game.phase == "acquire":
            raise IllegalMove(_("draw or take first: you close after acquiring a card"))
        preview = game.close_preview(seat, card, groups)  # refuses as the move would
        arg, _sealed = encode_declaration(game, seat, card, groups)
        exposed = " | ".join(m.codes for m in preview.melds) or _("no combination")
        table = game.own_melds(seat)
        beside = ", " + _n("beside your table combination {melds}",
                           "beside your table combinations {melds}", len(table),
                           melds=" | ".join(m.codes for m in table)) if table else ""
        total = f"{preview.score.total:+d}"
        return confirm(_("**Close with {card}?** You would expose {exposed}{beside}: {total} "
                         "this deal, {text}.",
                         card=card.code, exposed=exposed, beside=beside,
                         total=total, text=preview.score.text),
                       _label("Close"), "confirm", arg, cancel="close")

    @staticmethod
    def confirm_discard(game: RemiGame, seat: int, card: Card) -> Reply | None:
        """Ask first when discarding ``card`` leaves no sequence to back the player's table
        sets (REM-A2: backing is checked at the take only, REM-24 counts them minus at the
        end); ``None`` when the discard costs nothing of the kind."""
        game.apply(Discard(seat, card))  # raises the refusal of a discard not allowed now
        table = game.own_melds(seat)
        sets = [m for m in table if not m.is_run]
        hand = list(game.hands[seat])
        if not sets or any(m.is_run for m in table) or not has_sequence(hand):
            return None
        if has_sequence(remove_pieces(hand, [card])):
            return None
        arg, _sealed = encode_declaration(game, seat, card, None)
        named = " | ".join(m.codes for m in sets)
        return confirm(_n("**Discard {card}?** It breaks the last sequence in your hand, "
                          "which backs your table set {named}: with no sequence, a set counts "
                          "minus at the end of the deal.",
                          "**Discard {card}?** It breaks the last sequence in your hand, "
                          "which backs your table sets {named}: with no sequence, a set counts "
                          "minus at the end of the deal.", len(sets), card=card.code,
                          named=named),
                       _label("Discard {card}", card=card.code), "discardok", arg,
                       cancel="discard",
                       danger=True)


def _cards(pieces: Sequence[Piece]) -> tuple[Card, ...]:
    if not all(isinstance(p, Card) for p in pieces):
        raise IllegalMove(_("Remi is played with cards, not tiles"))
    return tuple(p for p in pieces if isinstance(p, Card))
