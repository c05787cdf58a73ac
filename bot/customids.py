"""What a button or select carries, and the one strict reading of what comes back.

A component's ``custom_id`` is ``rm:<game>:<action>:<argument>`` (a button) or
``rs:<game>:<action>:<argument>`` (a select menu); a replay stepper's are
``rpb:``/``rps:`` (:func:`decode_replay`). Every action says what its
argument is, and a select also what its values are (:class:`Action`): a hand
selection, a pile position, a turn stamp, a draw source… The shared actions
(lobby, rematch, hand panel) are listed here; each variant's controls list
their own (``Controls.actions``).

:func:`decode` is the only place an incoming ``custom_id`` or select value is
read. It accepts exactly what the bot could have emitted (ASCII digits, bounded
lengths and counts, a known action, an argument of that action's kind, values
among the options the message offered) and refuses anything else with one line
(:class:`Unreadable`). So a pile position is never read as hand positions, and
a forged id never reaches the game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from .engine.serial import piece_from_code

GAME_ID_MAX = 2**63 - 1
"""Game ids are 64-bit database keys."""
POSITIONS_MAX = 120
"""No hand or rack holds more pieces (Tile Rummy has 106 tiles)."""
VALUES_MAX = 25
"""Discord's limit on a select's options, so on the values it sends."""

_ENVELOPE = re.compile(r"r([ms]):([1-9][0-9]{0,18}):([a-z]{1,12}):([!-~]{0,80})", re.ASCII)
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


class Unreadable(Exception):
    """A custom_id or select value the bot could not have emitted; ``str()`` is the answer."""


class GameGone(Unreadable):
    """A well-formed action of a game that is no longer running."""


GAME_GONE = "This game is no longer running."
UNREADABLE = ("That button or menu is not one I can read, so nothing changed: use the newest "
              "turn message or open My hand again.")


# -- kinds of argument and value ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of argument or select value: its name and its exact grammar."""

    name: str
    pattern: str

    def accepts(self, text: str) -> bool:
        return re.fullmatch(self.pattern, text, re.ASCII) is not None


def words(name: str, *choices: str) -> Kind:
    """An argument that is one of a few fixed words (or empty when ``""`` is a choice)."""
    return Kind(name, "|".join(re.escape(c) for c in choices))


_CODE = r"[0-9A-Z]{1,3}"
_SLOT = r"[0-9]{1,3}(=[0-9A-Z]{1,3})?"
_GROUP = rf"{_SLOT}(-{_SLOT})*"

NOTHING = Kind("nothing", "")
SELECTION = Kind("hand selection", r"(m[0-9a-z]{1,24})?")
"""Positions picked in the hand panel (:func:`encode_positions`); the only kind that is."""
PICK = Kind("pick menu", r"[1-9](m[0-9a-z]{1,24})?")
"""A pick menu's number, then what is picked in the panel's other pick menus."""
PILE = Kind("pile position", r"[1-9]")
STAMP = Kind("turn stamp", r"t[0-9]{1,12}")
LEVEL = Kind("computer level", r"[a-z]{0,16}")
QUESTION = Kind("question", r"[a-z]{1,16}")
SHOW = Kind("show", rf"t[0-9]{{1,12}}~[0-9]{{1,3}}(~{_GROUP}(\|{_GROUP})*)?")
"""A finish card and grouping as hand positions, stamped with the turn (Indian, Remi)."""
OFFER = Kind("take offer", rf"[1-9]~{_CODE}(-{_CODE}){{0,12}}")
"""A pile position and the hand cards to take it with (Remi)."""

POSITION = Kind("hand position", r"[1-9][0-9]{0,2}")
MELD = Kind("meld number", r"[1-9][0-9]{0,3}")
PLACED = Kind("piece in a meld", rf"{_CODE}@[1-9][0-9]{{0,3}}")


@dataclass(frozen=True, slots=True)
class Action:
    """What one action's component carries: its argument, and a select's values."""

    arg: Kind = NOTHING
    values: Kind | None = None
    """``None``: a button. Otherwise a select whose values are all of this kind."""
    at_least: int = 1
    at_most: int = 1


def button(arg: Kind = NOTHING) -> Action:
    return Action(arg)


def select(arg: Kind, values: Kind, at_least: int = 1, at_most: int = 1) -> Action:
    return Action(arg, values, at_least, at_most)


SHARED: Mapping[str, Action] = {
    "join": button(), "leave": button(), "start": button(), "cancel": button(),
    "addbot": button(LEVEL), "rematch": button(), "replay": button(), "hand": button(),
    "hint": button(),
    "pick": select(PICK, POSITION, 0, VALUES_MAX),
}
"""Actions of every game: the lobby, Rematch and Replay, the hand panel, its pick menus and
its Hint button."""


# -- hand selections -------------------------------------------------------------------------


def encode_positions(positions: Sequence[int]) -> str:
    """Selected 1-based positions as a compact argument: ``m`` and a base-36 bitmask.

    A ``custom_id`` holds 100 characters, so a 30-tile selection cannot be spelled out
    (``1.2.3…30`` alone is 81); the mask needs at most 9 characters for 46 positions.
    """
    if not positions:
        return ""
    mask = sum(1 << (p - 1) for p in set(positions) if p >= 1)
    digits = ""
    while mask:
        mask, digit = divmod(mask, 36)
        digits = _B36[digit] + digits
    return "m" + digits


def decode_positions(arg: str) -> list[int]:
    """Positions from :func:`encode_positions` (``[]`` for anything else)."""
    if not SELECTION.accepts(arg) or not arg:
        return []
    mask = int(arg[1:], 36)
    return [bit + 1 for bit in range(mask.bit_length()) if mask >> bit & 1]


# -- reading what comes back ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Click:
    """A button press or a selection, read: everything in it is as the bot emitted it."""

    game_id: int
    action: str
    arg: str = ""
    """Of the action's kind (its grammar checked)."""
    selection: tuple[int, ...] = ()
    """Hand-panel positions, for a selection argument only (a pile position never is one)."""
    values: tuple[str, ...] = field(default=())
    """A select's values, each of the action's value kind and among the options offered."""


ActionsOf = Callable[[int], Mapping[str, Action] | None]
"""A game's own actions by its id (``None``: no game of that id is running)."""


def decode(custom_id: str, values: Sequence[str] | None, offered: Collection[str],
           actions_of: ActionsOf) -> Click:
    """Read a component's ``custom_id`` (and a select's ``values``) strictly.

    ``offered``: the values of the options on the message that was used (a select
    sends only those); ``actions_of`` gives a running game's own actions. Raises
    :class:`Unreadable` for anything the bot could not have emitted, or
    :class:`GameGone` for an action of a game that is no longer running.
    """
    envelope = _ENVELOPE.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if envelope is None:
        raise Unreadable(UNREADABLE)
    kind, game_text, action, arg = envelope.groups()
    game_id = int(game_text)
    if game_id > GAME_ID_MAX:
        raise Unreadable(UNREADABLE)
    spec = SHARED.get(action)
    if spec is None:
        own = actions_of(game_id)
        if own is None:
            raise GameGone(GAME_GONE)
        spec = own.get(action)
    if spec is None or (kind == "s") != (spec.values is not None) or not spec.arg.accepts(arg):
        raise Unreadable(UNREADABLE)
    chosen = _values(spec, values, offered) if spec.values is not None else ()
    selection: tuple[int, ...] = ()
    if spec.arg is SELECTION:
        selection = tuple(decode_positions(arg))
    elif spec.arg is PICK:
        selection = tuple(decode_positions(arg[1:]))
    if any(p > POSITIONS_MAX for p in selection):
        raise Unreadable(UNREADABLE)
    return Click(game_id, action, arg, selection, chosen)


def _values(spec: Action, values: Sequence[str] | None, offered: Collection[str]
            ) -> tuple[str, ...]:
    kind = spec.values
    assert kind is not None
    chosen = tuple(values or ())
    if not spec.at_least <= len(chosen) <= spec.at_most or len(set(chosen)) != len(chosen):
        raise Unreadable(UNREADABLE)
    for value in chosen:
        if not isinstance(value, str) or not kind.accepts(value) or value not in offered:
            raise Unreadable(UNREADABLE)
        if kind is PLACED:
            try:
                piece_from_code(value.partition("@")[0])
            except ValueError:
                raise Unreadable(UNREADABLE) from None
    return chosen



_REPLAY_BUTTON = re.compile(r"rpb:([1-9][0-9]{0,18}):([0-9]{1,6}):(first|prev|next|last)",
                            re.ASCII)
_REPLAY_SELECT = re.compile(r"rps:([1-9][0-9]{0,18}):([0-9]{1,6})", re.ASCII)
_STEP = re.compile(r"[0-9]{1,6}", re.ASCII)


def decode_replay(custom_id: str, values: Sequence[str] | None,
                  offered: Collection[str]) -> tuple[int, int]:
    """A replay stepper's button (``rpb:<game>:<step>:<way>``) or jump menu (``rps:<game>:<step>``
    and one step among the options offered): the game and the step to show."""
    if values is None:
        found = _REPLAY_BUTTON.fullmatch(custom_id) if isinstance(custom_id, str) else None
        step = found.group(2) if found else ""
    else:
        found = _REPLAY_SELECT.fullmatch(custom_id) if isinstance(custom_id, str) else None
        chosen = list(values)
        step = chosen[0] if len(chosen) == 1 and isinstance(chosen[0], str) else ""
        if not _STEP.fullmatch(step) or step not in offered:
            found = None
    if found is None or int(found.group(1)) > GAME_ID_MAX:
        raise Unreadable(UNREADABLE)
    return int(found.group(1)), int(step)


def encode(kind: str, game_id: int, action: str, arg: str) -> str:
    """The ``custom_id`` of a button (``kind`` ``"m"``) or select (``"s"``)."""
    return f"r{kind}:{game_id}:{action}:{arg}"
