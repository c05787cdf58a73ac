"""Rummi chip settlement (RMI-22 … RMI-28), in exact half-chips.

Every amount inside the engine is an integer number of *half-chips* (RMI-22):
``3`` means 1.5 chips. :func:`format_chips` turns one into ``+1.5`` for people.

A game ends either with a Hu (RMI-20, RMI-23: every other player pays the
winner ``hu_chips``; Tien Hu pays the same) or on points (RMI-24 … RMI-26: tier
payments to place 1). Adjustments for unplayed jokers and Aces follow in both
cases (RMI-27). :func:`settle` returns the totals *and* every payment (payer,
payee, amount, reason) so the results can say who pays whom and a table can
settle real chips; the payments add up to the totals, which sum to 0.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cards import Piece
from .errors import InvalidOptions
from .scoring import places as competition_places

HALVES = 2
"""Half-chips per chip."""

DEFAULT_TIERS = "1-2-3"
MAX_TIER_ENTRIES = 4
MAX_TIER_CHIPS = 1000

# Payment reasons.
TIER = "tier"
HU = "hu"
TIEN_HU = "tien_hu"
JOKERS = "jokers"
ACES = "aces"
JOKERS_ACES = "jokers_aces"
"""A pair whose joker and Ace differences point opposite ways: one net payment."""
NET = "net"
"""Everything one seat owes another, netted (:meth:`Settlement.transfers`)."""

REASON_LABELS = {TIER: "tier", HU: "Hu", TIEN_HU: "Tien Hu", JOKERS: "joker adjustment",
                 ACES: "Ace adjustment", JOKERS_ACES: "joker/Ace adjustment", NET: "in all"}
ADJUSTMENTS = frozenset({JOKERS, ACES, JOKERS_ACES})


# ---------------------------------------------------------------------------
# Formatting and the tiers option
# ---------------------------------------------------------------------------

def format_chips(half_chips: int, signed: bool = True) -> str:
    """Half-chips as chips in 0.5 steps: ``5`` → ``+2.5``, ``-2`` → ``-1``, ``0`` → ``0``."""
    whole, half = divmod(abs(half_chips), HALVES)
    text = f"{whole}.5" if half else str(whole)
    if half_chips < 0:
        return "-" + text
    return "+" + text if signed and half_chips > 0 else text


_ENTRY = re.compile(r"[0-9]{1,4}(?:\.[0-9]{1,3})?")


def parse_tiers(text: str) -> tuple[int, ...]:
    """The ``tiers`` option (RMI-25) as half-chips: ``"1-2-3"`` → ``(2, 4, 6)``.

    1 to 4 entries joined by ``-``, each a multiple of 0.5 from 0 to 1000, never
    going down. Anything else raises :class:`InvalidOptions` with a one-line reason.
    """
    if not isinstance(text, str):
        raise InvalidOptions("tiers must be chips joined by -, like 1-2-3")
    entries = [e.strip() for e in text.strip().split("-")]
    if entries == [""]:
        raise InvalidOptions("tiers needs 1 to 4 entries joined by -, like 1-2-3")
    if len(entries) > MAX_TIER_ENTRIES:
        raise InvalidOptions(f"tiers takes 1 to {MAX_TIER_ENTRIES} entries joined by -, "
                             f"not {len(entries)}")
    halves: list[int] = []
    for entry in entries:
        if not _ENTRY.fullmatch(entry):
            # JSON quoting shows control characters escaped, so the reason stays one line.
            shown = json.dumps(entry if len(entry) <= 12 else entry[:12] + "…",
                               ensure_ascii=False)
            raise InvalidOptions(f"tiers: {shown} is not a number of chips "
                                 "(write them like 1-2-3 or 0.5-1.5)")
        value = Fraction(entry) * HALVES
        if value.denominator != 1:
            raise InvalidOptions(f"tiers: {entry} is not a multiple of 0.5")
        if value > MAX_TIER_CHIPS * HALVES:
            raise InvalidOptions(f"tiers: {entry} is more than {MAX_TIER_CHIPS} chips")
        half = int(value)
        if halves and half < halves[-1]:
            raise InvalidOptions(f"tiers must not go down: {entry} comes after "
                                 f"{format_chips(halves[-1], signed=False)}")
        halves.append(half)
    return tuple(halves)


TIERS_DEFAULT = parse_tiers(DEFAULT_TIERS)
"""``1-2-3`` in half-chips."""


def format_tiers(tiers: Sequence[int]) -> str:
    """Half-chip tiers back to option text: ``(2, 3)`` → ``"1-1.5"``."""
    return "-".join(format_chips(t, signed=False) for t in tiers)


def tier_amounts(tiers: Sequence[int], players: int) -> tuple[int, ...]:
    """t_2 … t_n in half-chips for ``players`` players (RMI-25).

    Entries beyond n−1 are ignored; missing ones continue the last step (a lone
    entry x goes on 2x, 3x …): ``1-2-3`` with 5 players → 1-2-3-4; ``2-4`` with 4
    → 2-4-6.
    """
    if not tiers:
        raise ValueError("tiers needs at least one entry")
    step = tiers[-1] - tiers[-2] if len(tiers) > 1 else tiers[0]
    wanted = players - 1
    amounts = list(tiers[:wanted])
    while len(amounts) < wanted:
        amounts.append(amounts[-1] + step)
    return tuple(amounts)


# ---------------------------------------------------------------------------
# Points and worth
# ---------------------------------------------------------------------------

def card_points(card: Piece) -> int:
    """RMI-24: 2–10 face value, J Q K 10, Ace 15, joker 0."""
    if card.is_joker:
        return 0
    return 15 if card.rank == 1 else min(card.rank, 10)


def hand_points(hand: Iterable[Piece]) -> int:
    return sum(card_points(c) for c in hand)


@dataclass(frozen=True, slots=True)
class Worth:
    """RMI-27 worth of a hand, split by cause (half-chips)."""

    jokers: int = 0
    """0.5 chip (1 half-chip) per joker."""
    aces: int = 0
    """0.5 chip per Ace, 1 chip for each Ace of an identical pair (same suit)."""

    @property
    def total(self) -> int:
        return self.jokers + self.aces


def worth(hand: Iterable[Piece]) -> Worth:
    """RMI-27: ``AS AS AD JK`` → jokers 1, aces 2 + 2 + 1 (half-chips): W = 3 chips."""
    jokers = 0
    aces_by_suit: Counter[int] = Counter()
    for card in hand:
        if card.is_joker:
            jokers += 1
        elif card.rank == 1:
            aces_by_suit[card.suit] += 1
    aces = 0
    for count in aces_by_suit.values():
        pairs, single = divmod(count, 2)
        aces += pairs * 2 * HALVES + single
    return Worth(jokers, aces)


# ---------------------------------------------------------------------------
# Settlement
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer: ``payer`` gives ``payee`` ``half_chips`` (> 0) for ``reason``."""

    payer: int
    payee: int
    half_chips: int
    reason: str

    @property
    def label(self) -> str:
        """``tier``, ``Hu``, ``Tien Hu``, ``joker adjustment`` …"""
        return REASON_LABELS[self.reason]


@dataclass(frozen=True, slots=True)
class Settlement:
    """The chips of one game (per seat, half-chips, summing to 0) and how they arise."""

    chips: tuple[int, ...]
    payments: tuple[Payment, ...]
    worth: tuple[Worth, ...]
    """RMI-27 worth per seat (zero for a Hu winner)."""
    points: tuple[int, ...] | None
    """RMI-24 points per seat; ``None`` after a Hu (points are not used)."""
    places: tuple[int, ...] | None
    """RMI-24 places per seat (1 = lowest points); ``None`` after a Hu."""
    winner: int | None = None
    """The Hu winner, if any."""
    tien_hu: bool = False

    def transfers(self) -> tuple[Payment, ...]:
        """One net transfer per pair of seats that exchange chips (fewest real-chip moves).

        Reason :data:`NET`; ordered by payer, then payee.
        """
        net: Counter[tuple[int, int]] = Counter()
        for p in self.payments:
            low, high = sorted((p.payer, p.payee))
            net[low, high] += p.half_chips if p.payer == low else -p.half_chips
        result = [Payment(low, high, amount, NET) if amount > 0
                  else Payment(high, low, -amount, NET)
                  for (low, high), amount in net.items() if amount]
        return tuple(sorted(result, key=lambda p: (p.payer, p.payee)))


def settle(hands: Sequence[Sequence[Piece]], turn_order: Sequence[int], *,
           tiers: Sequence[int] = TIERS_DEFAULT, hu_chips: int = 10, winner: int | None = None,
           tien_hu: bool = False, last: Collection[int] = ()) -> Settlement:
    """Settle one game (RMI-22 … RMI-28).

    ``hands`` holds what each seat has left (seat index = position); ``turn_order``
    lists every seat in turn order from the player on the dealer's right (RMI-6),
    which orders payments and splits tie remainders (RMI-26). ``tiers`` are the
    half-chip entries from :func:`parse_tiers`; ``hu_chips`` is in chips. With a
    ``winner`` (Hu, or Tien Hu when ``tien_hu``) every other seat pays ``hu_chips``
    and tiers are not used (RMI-23); otherwise tier payments follow the points
    (RMI-24 … RMI-26). Adjustments follow in both cases (RMI-27).

    ``last``: seats ranked after every other seat whatever their points, in their
    own points order (players who left the match: the bot records them last, so
    they pay the last tiers and collect none; the rules leave leaving to the bot).
    They collect no adjustment either: a pair in which a leaver's worth is the lower
    pays nothing, so leaving never earns a chip; what a leaver owes, it pays.
    """
    n = len(hands)
    if sorted(turn_order) != list(range(n)):
        raise ValueError("turn_order must list every seat once")
    if winner is not None and not 0 <= winner < n:
        raise ValueError("no such winner")
    if tien_hu and winner is None:
        raise ValueError("a Tien Hu needs its winner")
    worths = tuple(Worth() if seat == winner else worth(hand) for seat, hand in enumerate(hands))
    if winner is not None:
        points = places = None
        reason = TIEN_HU if tien_hu else HU
        main = [Payment(seat, winner, hu_chips * HALVES, reason)
                for seat in turn_order if seat != winner]
    else:
        points = tuple(hand_points(hand) for hand in hands)
        behind = max(points, default=0) + 1  # past every seat that stayed
        places = tuple(competition_places([p + behind * (seat in last)
                                           for seat, p in enumerate(points)],
                                          lower_is_better=True))
        main = _tier_payments(places, tier_amounts(tiers, n), turn_order)
    payments = tuple(main + [p for p in _adjustments(worths, turn_order) if p.payee not in last])
    chips = [0] * n
    for p in payments:
        chips[p.payer] -= p.half_chips
        chips[p.payee] += p.half_chips
    return Settlement(tuple(chips), payments, worths, points, places, winner, tien_hu)


def tie_payment(amounts: Sequence[int], first: int, last: int) -> int:
    """What each player tied on places ``first``..``last`` (> 1) pays (RMI-26), half-chips.

    The average of t_first … t_last, rounded to the nearest half-chip; an exact
    quarter (half a half-chip) rounds up. ``amounts`` are t_2 … t_n.
    """
    total = sum(amounts[first - 2:last - 1])
    count = last - first + 1
    return (2 * total + count) // (2 * count)


def _tier_payments(places: Sequence[int], amounts: Sequence[int],
                   turn_order: Sequence[int]) -> list[Payment]:
    """RMI-25/26: each place > 1 pays its (averaged) tier; place 1 shares the pot."""
    ordered = list(turn_order)
    group_size = Counter(places)
    owed = {seat: tie_payment(amounts, places[seat], places[seat] + group_size[places[seat]] - 1)
            for seat in ordered if places[seat] > 1}
    winners = [seat for seat in ordered if places[seat] == 1]
    pot = sum(owed.values())
    share, rest = divmod(pot, len(winners))
    quota = {seat: share + (i < rest) for i, seat in enumerate(winners)}
    # Fill the winners' shares in turn order from the payers in turn order.
    payments: list[Payment] = []
    receivers = iter(winners)
    receiver = next(receivers)
    for payer, amount in owed.items():
        while amount:
            while not quota[receiver]:
                receiver = next(receivers)
            given = min(amount, quota[receiver])
            payments.append(Payment(payer, receiver, given, TIER))
            amount -= given
            quota[receiver] -= given
    return payments


def _adjustments(worths: Sequence[Worth], turn_order: Sequence[int]) -> list[Payment]:
    """RMI-27: in every pair the higher worth pays the difference (equal: nothing).

    The payment is itemised as a joker and an Ace part when both parts go the
    payer's way; when they go opposite ways (more Aces, fewer jokers) the pair
    gets one net ``jokers_aces`` payment, so no pair ever pays both ways.
    """
    payments: list[Payment] = []
    order = list(turn_order)
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            wa, wb = worths[a], worths[b]
            difference = wa.total - wb.total
            if not difference:
                continue
            payer, payee, sign = (a, b, 1) if difference > 0 else (b, a, -1)
            jokers = sign * (wa.jokers - wb.jokers)
            aces = sign * (wa.aces - wb.aces)
            if jokers >= 0 and aces >= 0:
                payments.extend(Payment(payer, payee, amount, reason)
                                for amount, reason in ((jokers, JOKERS), (aces, ACES)) if amount)
            else:
                payments.append(Payment(payer, payee, abs(difference), JOKERS_ACES))
    return payments
