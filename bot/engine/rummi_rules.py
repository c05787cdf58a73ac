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

Before the search, :func:`joker_floor` gives a lower bound on the jokers any
division needs; a hand holding fewer is refused at once. The bound is a
necessary condition (proof in its docstring), so the answer stays exact; it
turns away ~97% of dealt hands and ~40% of hands with 4–8 jokers in ~0.1 ms.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .arrange import INFINITY, best_arrangement
from .cards import Piece
from .i18n import tr
from .melds import ACES_SPAN, Meld, MeldRules, read_meld

RUMMI_RULES = MeldRules(runs=ACES_SPAN, run_min=3, set_min=3, set_max=None,
                        distinct_suits=False, jokers=True, run_min_naturals=1,
                        # i18n: Rummi's meld kinds as Singapore players say them (kill: a set)
                        set_min_naturals=1, run_word=tr("sequence"), set_word=tr("kill"))
"""RMI-10 sequences (no wrap, A…A allowed), RMI-11 kills (suits may repeat, no size
limit), RMI-12 jokers (every meld holds a natural card)."""


def _never_left(_: Piece) -> int:
    return INFINITY


_EPSILON = 1e-9
"""Float slack for :func:`joker_floor`: its shares have denominators ≤ 14, so a true excess
over a whole number of jokers is at least 1/lcm(1..14) = 1/360360, far above rounding error."""


def joker_floor(hand: Sequence[Piece]) -> float:
    """A lower bound on the jokers any division of ``hand`` into melds uses.

    In a division, give each natural card of a meld with N naturals and J
    jokers the share J/N; the shares of a meld add up to its J, so all shares
    add up to at most the jokers held. A card's share is at least the least
    share of any meld that could hold it: a kill of its rank holding every copy
    of that rank in the hand (m copies: max(0, 3 − m)/m), or a sequence window
    of its suit holding every natural of that suit the window can take (a
    window of L positions with n of them in hand: (L − n)/n). Windows with an
    end not in hand are beaten by the window one shorter, so only windows with
    both ends in hand, and 3-card windows, are looked at.
    """
    naturals = [c for c in hand if not c.is_joker]
    copies = Counter(c.rank for c in naturals)
    total = 0.0
    for suit in range(4):
        ranks = Counter(c.rank for c in naturals if c.suit == suit)
        if ranks:
            best = _sequence_shares(ranks)
            for rank, count in ranks.items():
                share = min(best[1], best[14]) if rank == 1 else best[rank]
                m = copies[rank]
                total += count * min(share, max(0, 3 - m) / m)
    return total


def _sequence_shares(ranks: Counter[int]) -> list[float]:
    """Least (L − n)/n over sequence windows holding each position (1..14, 14 = ace high)."""
    aces = ranks.get(1, 0)
    present = [False] * 15
    for rank in ranks:
        present[rank] = True
    present[14] = aces > 0
    positions = [p for p in range(1, 15) if present[p]]
    before = [0] * 15
    for p in range(1, 15):
        before[p] = before[p - 1] + present[p]
    windows: set[tuple[int, int]] = set()
    for i, start in enumerate(positions):
        windows.update((start, end) for end in positions[i:] if end - start >= 2)
        windows.update((s, s + 2) for s in (start - 2, start - 1, start) if 1 <= s <= 12)
    best = [INFINITY * 1.0] * 15
    for start, end in windows:
        held = before[end] - before[start - 1]
        if start == 1 and end == 14:  # the A…A window takes both aces only with two copies
            held += min(2, aces) - 2
        share = (end - start + 1 - held) / held
        for p in positions:
            if start <= p <= end and share < best[p]:
                best[p] = share
    return best


def tien_hu(hand: Sequence[Piece]) -> tuple[Meld, ...] | None:
    """A division of the whole ``hand`` into Rummi melds (RMI-8), or ``None`` if there is none.

    Exact for any hand (20 cards from the 112-card deck, up to 8 jokers). Each
    meld holding a joker is re-read with :func:`read_meld`, so it shows the
    reading a player would get laying it (NOT-8, RMI-12: one natural plus two
    jokers reads as a sequence; jokers extend a sequence upward). Melds come in
    the search's order: by the suit, then the rank, of their lowest natural card.
    """
    if not hand or joker_floor(hand) > sum(c.is_joker for c in hand) + _EPSILON:
        return None
    found = best_arrangement(hand, RUMMI_RULES, _never_left)
    if found is None or found.deadwood:
        return None
    # Melds of natural cards only are already in their one reading.
    return tuple(read_meld(meld.pieces, RUMMI_RULES) if any(p.is_joker for p in meld.pieces)
                 else meld for meld in found.melds)


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
