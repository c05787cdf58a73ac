"""An independent reference for gin-style hands: list every meld, try every set of disjoint ones.

Written for ``bench/engine.py`` to compare the project's search against, in the
manner of RLCard's gin rummy melding utilities (all runs and sets of a hand,
then every cluster of non-overlapping melds, the least deadwood wins). It
shares nothing with ``bot.engine.melds`` or ``bot.engine.arrange``: it knows
only one pack, no jokers, sets of 3 or 4 of one rank, and runs of 3 or more
consecutive ranks of one suit with aces low.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from bot.engine.cards import Card


def all_melds(hand: Sequence[Card]) -> list[int]:
    """Every meld of ``hand`` as a bit mask over positions in ``hand``."""
    melds: list[int] = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, dict[int, int]] = {}
    for position, card in enumerate(hand):
        by_rank.setdefault(card.rank, []).append(position)
        by_suit.setdefault(card.suit, {})[card.rank] = position
    for positions in by_rank.values():
        for size in (3, 4):
            for chosen in combinations(positions, size):
                melds.append(sum(1 << p for p in chosen))
    for ranks in by_suit.values():
        for low in range(1, 12):
            mask, rank = 0, low
            while rank in ranks:
                mask |= 1 << ranks[rank]
                if rank - low >= 2:
                    melds.append(mask)
                rank += 1
    return melds


def least_deadwood(hand: Sequence[Card], value: Callable[[Card], int]) -> int:
    """The least total value of the cards left out of every cluster of disjoint melds."""
    values = [value(card) for card in hand]
    melds = all_melds(hand)
    worth = [sum(v for p, v in enumerate(values) if meld >> p & 1) for meld in melds]
    total = sum(values)
    best = total

    def extend(start: int, used: int, melded: int) -> None:
        nonlocal best
        best = min(best, total - melded)
        for index in range(start, len(melds)):
            if not melds[index] & used:
                extend(index + 1, used | melds[index], melded + worth[index])

    extend(0, 0, 0)
    return best
