"""Rummi (Singapore) melds and Tien Hu detection (RMI-8, RMI-10 … RMI-12).

Kept apart from the game module so the turn shape (shared with Penang) and
these rules can be built and tested independently.

Tien Hu asks whether a whole dealt hand divides into melds: sequences
(``ACES_SPAN``: A-2-3, Q-K-A and the 14-card A…A, never K-A-2) and kills (any
suits, suits may repeat), each of 3 or more cards with at least one natural
card, jokers standing for anything. The exact search of :mod:`arrange` answers
it: every card is given an infinite deadwood value, so the search never
explores leaving a card out and returns ``None`` as soon as no full division
exists (``covers_all`` asks the same with value 1 and explores the
partial divisions too, which is several times slower on hands that are not Hu).
"""

from __future__ import annotations

from collections.abc import Sequence

from .arrange import INFINITY, best_arrangement
from .cards import Piece
from .melds import ACES_SPAN, Meld, MeldRules, read_meld

RUMMI_RULES = MeldRules(runs=ACES_SPAN, run_min=3, set_min=3, set_max=None,
                        distinct_suits=False, jokers=True, run_min_naturals=1,
                        set_min_naturals=1, run_word="sequence", set_word="kill")
"""RMI-10 sequences (no wrap, A…A allowed), RMI-11 kills (suits may repeat, no size
limit), RMI-12 jokers (every meld holds a natural card)."""


def _never_left(_: Piece) -> int:
    return INFINITY


def tien_hu(hand: Sequence[Piece]) -> tuple[Meld, ...] | None:
    """A division of the whole ``hand`` into Rummi melds (RMI-8), or ``None`` if there is none.

    Exact for any hand (20 cards from the 112-card deck, up to 8 jokers). Each
    meld of the division is re-read with :func:`read_meld`, so it shows the
    reading a player would get laying it (NOT-8, RMI-12: one natural plus two
    jokers reads as a sequence; jokers extend a sequence upward). Melds come
    sequences and kills in the search's order: by suit, then rank of their
    lowest natural card.
    """
    if not hand:
        return None
    found = best_arrangement(hand, RUMMI_RULES, _never_left)
    if found is None or found.deadwood:
        return None
    return tuple(read_meld(meld.pieces, RUMMI_RULES) for meld in found.melds)


def first_tien_hu(hands: Sequence[Sequence[Piece]],
                  turn_order: Sequence[int]) -> tuple[int, tuple[Meld, ...]] | None:
    """The seat that wins by Tien Hu and its division, or ``None`` (RMI-7, RMI-8).

    Hands are checked in ``turn_order`` (seat indices, starting with the player
    on the dealer's right); the first that divides wins, later ones are not
    looked at (they are ordinary losers).
    """
    for seat in turn_order:
        division = tien_hu(hands[seat])
        if division is not None:
            return seat, division
    return None
