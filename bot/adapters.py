"""What the controller asks of each variant's cog: buttons, the hand panel, moves.

The controller owns everything that is the same for all variants (lobbies,
persistence, timers, computers, publishing); a variant cog implements this
small interface to say which moves its buttons make.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .engine.cards import Piece
from .engine.game import Game, Move
from .ui import ButtonSpec, SelectSpec


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


class VariantAdapter(Protocol):
    key: str

    def turn_buttons(self, game: Game) -> list[ButtonSpec]:
        """Routine moves on the public turn message (e.g. draw from stock, take 7H)."""
        ...

    def panel(self, game: Game, seat: int, selected: Sequence[int],
              order: Sequence[Piece]) -> Panel:
        """Buttons and selects for the hand panel, given selected positions (1-based)."""
        ...

    def action(self, game: Game, seat: int, action: str, arg: str,
               picked: Sequence[Piece], values: Sequence[str]) -> Move | Reply:
        """The move (or reply) for a button or select of this variant."""
        ...
