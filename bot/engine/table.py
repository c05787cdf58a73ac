"""Seats, dealing and table melds: the mechanics most variants share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import IllegalMove
from .i18n import tr
from .melds import Meld
from .views import MeldView

T = TypeVar("T")


def next_seat(seat: int, players: int, eligible: Sequence[bool] | None = None,
              step: int = 1) -> int:
    """The following seat in seat order (``step`` -1 for anticlockwise) that is eligible.

    Returns ``seat`` itself when nobody else is eligible.
    """
    for offset in range(1, players + 1):
        candidate = (seat + step * offset) % players
        if eligible is None or eligible[candidate]:
            return candidate
    return seat


def deal_one_at_a_time(deck: list[T], players: int, first: int, count: int,
                       step: int = 1) -> list[list[T]]:
    """Deal ``count`` each from the top (index 0), one at a time, starting with ``first``.

    Removes the dealt pieces from ``deck``.
    """
    hands: list[list[T]] = [[] for _ in range(players)]
    for i in range(count * players):
        hands[(first + step * i) % players].append(deck[i])
    del deck[:count * players]
    return hands


def deal_in_batches(deck: list[T], players: int, first: int, count: int, batch: int,
                    step: int = 1) -> list[list[T]]:
    """Deal ``count`` each from the top, ``batch`` at a time in turn order from ``first``.

    Rummi (RMI-5) deals five rounds of 4; ``batch`` must divide ``count``.
    Removes the dealt pieces from ``deck``.
    """
    if count % batch:
        raise ValueError("the batch size must divide the hand size")
    hands: list[list[T]] = [[] for _ in range(players)]
    top = 0
    for _ in range(count // batch):
        for i in range(players):
            hands[(first + step * i) % players].extend(deck[top:top + batch])
            top += batch
    del deck[:top]
    return hands


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table with its number (NOT-11) and who laid it (STR-14)."""

    number: int
    owner: int
    meld: Meld

    def view(self) -> MeldView:
        return MeldView(self.number, self.meld.pieces, self.meld.faces, self.meld.kind,
                        self.owner)


def find_meld(table: Sequence[TableMeld], number: int) -> TableMeld:
    for table_meld in table:
        if table_meld.number == number:
            return table_meld
    raise IllegalMove(tr("there is no meld {number} on the table", number=number))


def replace_meld(table: list[TableMeld], number: int, meld: Meld) -> None:
    """Swap in the grown meld, keeping its number and owner."""
    for i, table_meld in enumerate(table):
        if table_meld.number == number:
            table[i] = TableMeld(number, table_meld.owner, meld)
            return
    raise IllegalMove(tr("there is no meld {number} on the table", number=number))
