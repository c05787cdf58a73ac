"""What the controller asks of each variant's controls, and the pieces they share.

The controller owns everything that is the same for all variants (lobbies,
persistence, timers, computers, publishing); a variant's controls say which
buttons its turn message and hand panel carry, and which move a click makes.
They are pure: they read the game and return specs, moves or replies.

Shared builders live here once: positions picked in the hand panel, the
meld / lay-off controls of melding variants, and confirmation questions
(Indian's declaration and drop today, Remi's close next).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

import discord

from ..customids import MELD, SELECTION, Action, button, encode_positions, select
from ..engine.cards import Face, Piece
from ..engine.errors import IllegalMove
from ..engine.game import Game, Move
from ..engine.i18n import tr
from ..engine.moves import Discard, LayOff, MeldDown, Placed, placed
from ..engine.notation import parse_ref
from ..engine.views import MeldView
from ..i18n import _, _label, _n
from ..texts import meld_text
from ..ui import CUSTOM_ID_LIMIT, SELECT_LIMIT, ButtonSpec, SelectSpec


@dataclass(frozen=True, slots=True)
class Reply:
    """An answer that is not a move (a private check, a confirmation question).

    ``update``: answer a button by replacing the private message it was on (e.g.
    Cancel on a confirmation question, so its buttons go away) instead of adding one.
    """

    text: str
    buttons: tuple[ButtonSpec, ...] = field(default=())
    update: bool = False


@dataclass(frozen=True, slots=True)
class Panel:
    """The controls of a player's private hand panel, for the current selection."""

    hint: str
    buttons: tuple[ButtonSpec, ...] = ()
    selects: tuple[SelectSpec, ...] = ()


class Controls(Protocol):
    """One variant's buttons and panel logic."""

    actions: ClassVar[Mapping[str, Action]]
    """Every action of its buttons and selects, with what each carries (bot.customids):
    the only ones its components are read as."""

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        """Routine moves on the public turn message (e.g. draw from stock, take 7H, done)."""
        ...

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        """Buttons and selects for the hand panel, given selected positions (1-based)."""
        ...

    def action(self, game: Game, seat: int, action: str, arg: str,
               picked: Sequence[Piece], values: Sequence[str]) -> Move | Reply:
        """The move (or reply) for a button or select of this variant."""
        ...


# -- positions picked in the hand panel ------------------------------------------------------


def need_picked(picked: Sequence[Piece], count: int | None = None, what: str = "") -> None:
    """Refuse a panel button pressed without (exactly ``count``) cards picked; ``what`` is
    the action in words (already translated: ``_("discard")``)."""
    if not picked:
        raise IllegalMove(_("pick cards in the menu first"))
    if count is not None and len(picked) != count:
        raise IllegalMove(_n("pick exactly one card to {what} in the menu first",
                             "pick exactly {n} cards to {what} in the menu first", count,
                             what=what))


# -- melding variants ---------------------------------------------------------------------


def meld_button(arg: str, selected: int, minimum: int = 3) -> ButtonSpec:
    """*Meld selected*: enabled once enough cards are picked."""
    return ButtonSpec(_label("Meld selected"), "meld", arg, discord.ButtonStyle.success,
                      disabled=selected < minimum)


def layoff_select(melds: Iterable[MeldView], arg: str, tiles: bool = False) -> SelectSpec | None:
    """*Lay off the selected cards on meld…*: one option per meld offered (newest 25)."""
    options = tuple((f"{m.number}: {meld_text(m, tiles)}", str(m.number)) for m in melds)
    # codes only: nothing to translate in the options
    if not options:
        return None
    return SelectSpec("layoff", _("Lay off the selected cards on meld…"),
                      options[-SELECT_LIMIT:], arg)


def melding_panel(melds: Iterable[MeldView], selected: Sequence[int], hint: str) -> Panel:
    """The play phase of a melding variant (Straight, Rummy 500): *Meld selected*, *Discard
    selected* and the lay-off menu for the picked cards; ``hint`` while nothing is picked."""
    arg = encode_positions(selected)
    buttons = (
        meld_button(arg, len(selected)),
        ButtonSpec(_label("Discard selected"), "discard", arg, discord.ButtonStyle.danger,
                   disabled=len(selected) != 1),
    )
    layoff = layoff_select(melds, arg) if selected else None
    return Panel("" if selected else hint, buttons, (layoff,) if layoff else ())


MELDING_ACTIONS: Mapping[str, Action] = {
    "meld": button(SELECTION), "discard": button(SELECTION), "layoff": select(SELECTION, MELD)}
"""The actions of :func:`melding_panel`, read by :func:`melding_move`."""


def melding_move(seat: int, action: str, picked: Sequence[Piece],
                 values: Sequence[str]) -> Move | None:
    """The move of a :func:`melding_panel` control, or ``None`` for another action."""
    if action not in MELDING_ACTIONS:
        return None
    need_picked(picked)
    if action == "meld":
        return MeldDown(seat, (placed(*picked),))
    if action == "discard":
        need_picked(picked, 1, _("discard"))
        return Discard(seat, picked[0])
    return LayOff(seat, placed(*picked), int(values[0]))


Groups = tuple[tuple[Placed, ...], ...]

ARG_LIMIT = CUSTOM_ID_LIMIT - len("rm::confirm:") - 19
"""Room for a confirmation's argument beside the longest game id (19 digits)."""
STALE = tr("that question is out of date (the turn has moved on): nothing changed")


def turn_stamp(game: Game) -> str:
    """What a confirmation button carries so that it only works in the turn it was asked."""
    return f"t{game.turn_serial}"


def check_stamp(game: Game, arg: str) -> None:
    if arg != turn_stamp(game):
        raise IllegalMove(STALE)


# -- a show or a close in a custom_id (Indian declare, Remi close) ---------------------------


def encode_declaration(game: Game, seat: int, finish: Piece,
                       groups: Groups | None) -> tuple[str, bool]:
    """``t<turn>~<finish>~<groups>`` as 1-based positions in ``game.hand(seat)``.

    A finish card plus an optional grouping (Indian's declaration, Remi's close),
    stamped with the turn so a stale confirmation is refused; nothing secret is in
    it, only positions.

    Returns the argument and whether joker annotations had to be left out to fit
    (they are optional: a grouping valid with them is valid without, IND-15).
    """
    hand = list(game.hand(seat))
    used: set[int] = set()

    def position(piece: Piece) -> int:
        index = next(i for i, held in enumerate(hand) if held == piece and i not in used)
        used.add(index)
        return index + 1

    head = f"{turn_stamp(game)}~{position(finish)}"
    if groups is None:
        return head, False
    slots = [[(position(p), face) for p, face in group] for group in groups]

    def text(faces: bool) -> str:
        return head + "~" + "|".join("-".join(
            f"{pos}={face.label()}" if faces and face is not None else str(pos)
            for pos, face in group) for group in slots)

    full = text(True)
    if len(full) <= ARG_LIMIT:
        return full, False
    return text(False), True


def decode_declaration(game: Game, seat: int, arg: str) -> tuple[Piece, Groups | None]:
    """The finish card and grouping a confirmation button carries; refuses stale ones."""
    turn, _sep, rest = arg.partition("~")
    check_stamp(game, turn)
    if game.to_move != seat:
        raise IllegalMove(STALE)
    hand = list(game.hand(seat))

    def piece(token: str) -> Piece:
        if not token.isdigit() or not 1 <= int(token) <= len(hand):
            raise IllegalMove(STALE)
        return hand[int(token) - 1]

    finish_text, _sep, groups_text = rest.partition("~")
    finish = piece(finish_text)
    if not groups_text:
        return finish, None
    groups = []
    for group in groups_text.split("|"):
        items: list[Placed] = []
        for token in group.split("-"):
            pos, _eq, label = token.partition("=")
            face: Face | None = parse_ref(f"JK={label}").stands_for if label else None
            items.append((piece(pos), face))
        groups.append(tuple(items))
    return finish, tuple(groups)


# -- confirmations ------------------------------------------------------------------------


def confirm(question: str, verb: str, action: str, arg: str, *, cancel: str,
            danger: bool = False) -> Reply:
    """A costly move asks first, privately: *<verb>* does it, *Cancel* changes nothing.

    ``cancel`` names what was asked (``declare``, ``drop``, ``close``) so the answer to
    Cancel can say what did not happen (:func:`dismissed`).
    """
    style = discord.ButtonStyle.danger if danger else discord.ButtonStyle.success
    return Reply(question, (ButtonSpec(verb, action, arg, style),
                            ButtonSpec(_label("Cancel"), "dismiss", cancel)))


DISMISSED = {"declare": tr("Not declared"), "drop": tr("Not dropped"), "close": tr("Not closed"),
             "dead": tr("Not declared dead"), "discard": tr("Not discarded"),
             "knock": tr("Not knocked")}


def dismissed(what: str) -> Reply:
    """The answer to Cancel on a confirmation: the question is replaced by one line."""
    return Reply(_("{what}: nothing changed.", what=DISMISSED.get(what, tr("Cancelled"))),
                 update=True)
