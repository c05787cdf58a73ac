"""Rummy 500's buttons (80-rummy500.md FHR-34, UX.md): draw, take from the spread pile, meld,
lay off, discard.

The turn message carries *Draw*, *Take…* and *My hand*. *Take…* answers the
player who clicks, privately, with one *Take N: card* button for each pile
position their hand can use now (FHR-18: the picked card must make a meld or a
lay-off at once), so nobody else learns what their hand can use. *Take N*
takes that card when the hand can use it one way, and otherwise asks which
way (*With 4H 6H*, *On meld 2*). In the *My hand* panel the player may instead
pick hand cards and choose a pile card to take with exactly those; after the
acquisition the panel is the melding panel Straight Rummy has (meld, lay off,
discard).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import discord

from ..customids import SELECTION, Action, Kind, button, encode_positions, select
from ..engine.cards import Card, Piece, codes
from ..engine.drawdiscard import layoff_kin
from ..engine.errors import IllegalMove, NotYourTurn
from ..engine.game import Game, Move
from ..engine.moves import Draw, Take
from ..engine.variants.rummy500 import Rummy500Game
from ..ui import ButtonSpec, SelectSpec
from .base import MELDING_ACTIONS, Panel, Reply, melding_move, melding_panel, need_picked

DEPTH = Kind("pile depth", r"[1-9][0-9]{0,2}")
"""A position of the spread pile (1 is the top; the pile may hold a hundred cards)."""
USE = Kind("take use", r"[1-9][0-9]{0,2}~[0-9]{1,4}(~[0-9A-Z]{1,3}(-[0-9A-Z]{1,3}){0,12})?")
"""How to use a pile card: its position, the meld to lay it off on (0: a new meld) and the
hand cards that go with it, by code."""
CHOICE = Kind("take choice", r"[1-9][0-9]{0,2}(@[1-9][0-9]{0,3})?")
"""A pile position, and the meld the picked cards are laid off on (none: a new meld)."""
OFFERED = 20
"""Most take buttons in one private answer (four rows of five)."""
STALE = "that pile position is out of date: look at the table again"


def _label(take: Take) -> str:
    """How a use of a pile card reads on its button."""
    with_cards = f"with {codes(take.with_cards)}" if take.with_cards else ""
    if take.meld is not None:
        return f"On meld {take.meld}" + (f" {with_cards}" if with_cards else "")
    return f"W{with_cards[1:]}" if with_cards else "Keep it (free top card)"


class Rummy500Controls:
    actions: ClassVar[Mapping[str, Action]] = {
        "draw": button(), "take": button(), "takeat": button(DEPTH), "takeuse": button(USE),
        "takewith": select(SELECTION, CHOICE), **MELDING_ACTIONS}

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        assert isinstance(game, Rummy500Game)
        if game.to_move is None or game.phase != game.draw_phase:
            return []
        buttons = [ButtonSpec("Draw", "draw", style=discord.ButtonStyle.success)]
        if game.pile:
            buttons.append(ButtonSpec("Take…", "take"))
        return buttons

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        assert isinstance(game, Rummy500Game)
        if game.is_over:
            return Panel("The game is over.")
        if game.to_move != seat:
            return Panel("It is not your turn yet.")
        if game.phase == game.draw_phase:
            return self._draw_panel(game, seat, selected, order)
        return melding_panel(game.meld_views(), selected,
                             "Pick cards, then Meld (3 or more), Lay off onto any meld, or "
                             "Discard one to end your turn.")

    def _draw_panel(self, game: Rummy500Game, seat: int, selected: Sequence[int],
                    order: Sequence[Piece]) -> Panel:
        """Draw, Take…, and with cards picked: the pile cards they can be used with."""
        buttons = tuple(self.turn_buttons(game))
        picked = tuple(c for c in (order[p - 1] for p in selected if 0 < p <= len(order))
                       if isinstance(c, Card))
        hint = ("Draw, or Take… a pile card your hand can use at once (in a new meld or on "
                "any meld); or pick the cards to use it with first.")
        if not picked:
            return Panel(hint, buttons)
        options: list[tuple[str, str]] = []
        for position, card in enumerate(game.top_cards(len(game.pile)), start=1):
            at = position if game.position_of(card) != position else None
            uses = [None, *(m.number for m in game.table if layoff_kin(m.meld)(card))]
            for meld in uses:
                if game.take_verdict(seat, card, picked, at, meld).ok:
                    where = f" on meld {meld}" if meld is not None else ""
                    options.append((f"Take {position}: {card.code} with {codes(picked)}{where}",
                                    f"{position}@{meld}" if meld is not None else str(position)))
        if not options:
            return Panel("No pile card makes a meld or a lay-off with those cards.", buttons)
        return Panel("", buttons, (SelectSpec("takewith", "Take a pile card with the selected "
                                              "cards…", tuple(options[:25]),
                                              encode_positions(selected)),))

    def action(self, game: Game, seat: int, action: str, arg: str, picked: Sequence[Piece],
               values: Sequence[str]) -> Move | Reply:
        assert isinstance(game, Rummy500Game)
        if action == "draw":
            return Draw(seat, "stock")
        if action == "take":
            return self.take_menu(game, seat)
        if action == "takeat":
            return self.take_at(game, seat, int(arg))
        if action == "takeuse":
            return self.take_use(game, seat, arg)
        if action == "takewith":
            need_picked(picked)
            position, _, meld = values[0].partition("@")
            card = self._card_at(game, int(position))
            at = int(position) if game.position_of(card) != int(position) else None
            return Take(seat, card, tuple(game.own_all(picked)), int(meld) if meld else None,
                        at)
        move = melding_move(seat, action, picked, values)
        if move is None:
            raise IllegalMove("that button is not part of Rummy 500")
        return move

    # -- takes from the turn message ---------------------------------------------------

    @staticmethod
    def _check_turn(game: Rummy500Game, seat: int) -> None:
        if not game.active[seat]:
            raise IllegalMove(game.out_of_hand)
        if game.to_move != seat:
            raise NotYourTurn()
        if game.phase != game.draw_phase:
            raise IllegalMove(game.already_drawn)

    @staticmethod
    def _card_at(game: Rummy500Game, position: int) -> Card:
        if not 1 <= position <= len(game.pile):
            raise IllegalMove(STALE)
        return game.pile[-position]

    def take_menu(self, game: Rummy500Game, seat: int) -> Reply:
        """*Take…*: a button for each pile position the player's hand can use now (FHR-34)."""
        self._check_turn(game, seat)
        positions = game.take_positions(seat)
        if not positions:
            return Reply("Your hand cannot use any pile card now (it must make a meld or a "
                         "lay-off at once): draw.")
        shown = positions[:OFFERED]
        more = (f" (the first {OFFERED} of {len(positions)}; the others with "
                "`/rummy500 take`)") if len(positions) > OFFERED else ""
        return Reply(f"Take which pile card? The cards above it come too{more}.",
                     tuple(ButtonSpec(f"Take {p}: {game.pile[-p].code}", "takeat", str(p))
                           for p in shown))

    def take_at(self, game: Rummy500Game, seat: int, position: int) -> Move | Reply:
        """*Take N*: the take itself when the hand uses the card one way; else ask which."""
        self._check_turn(game, seat)
        card = self._card_at(game, position)
        options = [t for t in game.takes(seat)
                   if t.card == card and (t.position or game.position_of(t.card)) == position]
        if not options:
            raise IllegalMove(f"your hand cannot use {card.code} from position {position} now: "
                              "draw, or see /rummy rules rummy500")
        if len(options) == 1:
            return options[0]
        return Reply(f"Take **{card.code}** from position {position} and use it how?",
                     tuple(ButtonSpec(_label(t), "takeuse",
                                      f"{position}~{t.meld or 0}"
                                      + (f"~{'-'.join(c.code for c in t.with_cards)}"
                                         if t.with_cards else ""))
                           for t in options[:OFFERED]))

    def take_use(self, game: Rummy500Game, seat: int, arg: str) -> Move:
        """A use chosen from :meth:`take_at`'s question, read back from its codes."""
        self._check_turn(game, seat)
        position_text, meld_text, *rest = arg.split("~")
        position = int(position_text)
        card = self._card_at(game, position)
        pool = [*game.hands[seat], *game.cards_above(position)]
        with_cards = []
        for code in rest[0].split("-") if rest else ():
            found = next((c for c in pool if c.code == code), None)
            if found is None:
                raise IllegalMove("that question is out of date: your hand changed")
            pool.remove(found)
            with_cards.append(found)
        at = position if game.position_of(card) != position else None
        return Take(seat, card, tuple(with_cards), int(meld_text) or None, at)
