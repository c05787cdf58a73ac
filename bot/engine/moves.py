"""Moves shared by several variants.

A move names concrete pieces (the bot resolves codes and ``#n`` positions
first, NOT-5/NOT-7); the variant checks that the seat may make it. Each
variant lists the move types it accepts in ``Game.move_types``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import Card, Face, Tile
from .game import Move

Placed = tuple[Card | Tile, Face | None]
"""A piece as laid on the table, with the face a player named for a joker (NOT-8)."""


def placed(*pieces: Card | Tile) -> tuple[Placed, ...]:
    """Pieces with no joker faces named (convenience for callers and tests)."""
    return tuple((p, None) for p in pieces)


@dataclass(frozen=True)
class Draw(Move):
    """Take the top card of a pile (``stock``/``discard``; Indian ``closed``/``open``)."""

    kind: ClassVar[str] = "draw"
    source: str


@dataclass(frozen=True)
class Discard(Move):
    kind: ClassVar[str] = "discard"
    card: Card | Tile


@dataclass(frozen=True)
class MeldDown(Move):
    """Lay one or more new melds from the hand (NOT-6: melds separated by ``|``)."""

    kind: ClassVar[str] = "meld"
    melds: tuple[tuple[Placed, ...], ...]


@dataclass(frozen=True)
class LayOff(Move):
    """Add pieces from the hand to table meld number ``meld``."""

    kind: ClassVar[str] = "layoff"
    cards: tuple[Placed, ...]
    meld: int


@dataclass(frozen=True)
class Take(Move):
    """Take ``card`` from a spread discard pile with every card above it, and use it at once.

    Remi (REM-16): ``with_cards`` are 2 or more hand cards that make one new
    combination with ``card``; the cards above reach the hand after it is laid.
    Rummy 500 (FHR-18): the cards go to the hand first, then ``card`` forms a
    new meld with ``with_cards`` or, with ``meld``, is laid off on that meld;
    ``position`` (1 = top) names which copy when the pile holds two.
    """

    kind: ClassVar[str] = "take"
    card: Card
    with_cards: tuple[Card, ...] = ()
    meld: int | None = None
    position: int | None = None


@dataclass(frozen=True)
class Done(Move):
    """End a turn of several actions (Penang PEN-14, Rummi RMI-16 ``many``, Tiles TIL-13)."""

    kind: ClassVar[str] = "done"


@dataclass(frozen=True)
class Swap(Move):
    """Put ``card`` from the hand in place of a joker in table meld ``meld``; the joker is taken.

    Penang substitution (PEN-16). In a run the card must be the one the joker
    stands for (NOT-8); in a set any card of the set's rank.
    """

    kind: ClassVar[str] = "swap"
    card: Card | Tile
    meld: int


@dataclass(frozen=True)
class Resume(Move):
    """End auto-play for the seat (Remi REM-31, Tile Rummy): it plays its own turns again.

    Accepted at any time from a seat on auto-play, whoever's turn it is.
    """

    kind: ClassVar[str] = "resume"
