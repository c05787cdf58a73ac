"""Computer players for Gin Rummy.

Both levels judge hands by their exact best deadwood (the engine's search,
:func:`~bot.engine.variants.gin.deadwood_count`), so they never break a meld by
mistake, and both knock as soon as they may (with the discard leaving the
least deadwood; gin when it can).

``easy`` plays like OpenSpiel's SimpleGinRummyBot: it takes the upcard only
when the card ends up in a meld, and throws the dearest deadwood card.

``standard`` also looks ahead and at its opponent:

* a hand is worth its deadwood less what the next cards could take off it:
  for every card it has not seen, how much a draw of that card would lower
  the best deadwood (a two-card run or pair counts for as much as it can
  become);
* a discard the opponent could use is avoided: a card of a rank or a suit
  neighbourhood the opponent took from the pile is dangerous, one whose
  neighbours are all seen (or that the opponent threw away the like of) is
  safe;
* the upcard is taken when it leaves a better hand than the average card of
  the stock would;
* late in a hand it knocks only when its count is unlikely to be undercut,
  and it holds on for gin when the stock is young and gin is a card away.

:func:`choose_move` is pure: a function of the game, the seat and a
``random.Random`` (used only to break exact ties).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..engine.cards import Card, card_deck
from ..engine.game import Move
from ..engine.moves import Discard, Draw, Resume
from ..engine.variants.gin import (
    GinGame,
    Knock,
    Pass,
    card_value,
    discard_deadwood,
    mask_deadwood,
    mask_of,
)

_DECK = sorted(card_deck(1), key=lambda c: c.index)
LOOK_AHEAD = 1.0
"""How many draws' worth of improvement a hand is credited with."""
KNOCK_CHANCE = 8.0
"""Points a hand is credited per unit of chance that the next draw lets it knock."""
DANGER = 6.0
"""Deadwood points a discard is charged per unit of chance that it gives the opponent a
meld (a meld from the pile brings its knock nearer)."""
TAKE_MARGIN = 0.0
"""How much better than a stock draw a take must leave the hand (it also shows the card)."""
UNDERCUT_RISK = 0.45
"""How hard a late knock with a high count is held back (the opponent may undercut)."""


def _dw(mask: int) -> int:
    return mask_deadwood(mask)


def _min_after(mask: int, locked: int = 0) -> tuple[int, int]:
    """For 11 cards: (least deadwood after one discard, that discard's bit); ``locked``
    bits may not be discarded."""
    best, chosen = 1 << 30, -1
    rest = mask & ~locked
    while rest:
        low = rest & -rest
        rest ^= low
        dead = _dw(mask ^ low)
        bit = low.bit_length() - 1
        if dead < best or (dead == best and card_value(_DECK[bit]) > card_value(_DECK[chosen])):
            best, chosen = dead, bit
    return best, chosen


def _related(card: Card, mask: int) -> bool:
    """``card`` shares a rank with, or is within two ranks in suit of, a card of ``mask``."""
    for other in range(4):
        if other != card.suit and mask >> (other * 13 + card.rank - 1) & 1:
            return True
    for step in (-2, -1, 1, 2):
        rank = card.rank + step
        if 1 <= rank <= 13 and mask >> (card.suit * 13 + rank - 1) & 1:
            return True
    return False


def _after_draws(mask: int, unseen: Sequence[Card]) -> list[int]:
    """For each unseen card: the best deadwood after drawing it and the best discard.

    A card that melds with nothing held is deadwood in every arrangement, so it
    is either thrown back or replaces the card whose loss helps most: no search.
    """
    now = _dw(mask)
    replace = discard_deadwood(mask) if mask else now
    return [discard_deadwood(mask | 1 << card.index) if _related(card, mask)
            else min(now, replace + card_value(card)) for card in unseen]


def hand_score(mask: int, unseen: Sequence[Card], limit: int = 10) -> float:
    """Lower is better: deadwood less the improvement the next draws may bring, less a
    bonus for the chance that the next draw lets the hand knock (``limit``)."""
    now = _dw(mask)
    if not unseen:
        return float(now)
    after = _after_draws(mask, unseen)
    mean = sum(after) / len(after)
    knocks = sum(1 for a in after if a <= limit) / len(after) if now > limit else 0.0
    return now - LOOK_AHEAD * (now - mean) - KNOCK_CHANCE * knocks


class _View:
    """What ``seat`` knows: its hand, the cards it has not seen, the opponent's picks, and
    the cards the opponent declined (our discards it left on the pile)."""

    def __init__(self, game: GinGame, seat: int) -> None:
        self.game, self.seat = game, seat
        other = 1 - seat
        self.hand = list(game.hands[seat])
        self.mask = mask_of(self.hand)
        self.picked = mask_of(game.known[other]) if game.known else 0
        pile = mask_of(game.pile)
        self.seen = self.mask | pile | self.picked
        self.unseen = [c for c in _DECK if not self.seen >> c.index & 1]
        ours = mask_of(game.discards[seat]) if game.discards else 0
        self.declined = ours & pile
        in_hand = len(game.hands[other]) - bin(self.picked).count("1")
        self.share = in_hand / len(self.unseen) if self.unseen else 0.0
        """The chance that a given unseen card is in the opponent's hand."""

    def _held(self, rank: int, suit: int, near: int) -> float:
        """The chance the opponent holds the card (``near``: bits of cards it declined a
        meld with, which make its neighbours less likely)."""
        if not 1 <= rank <= 13:
            return 0.0
        bit = suit * 13 + rank - 1
        if self.picked >> bit & 1:
            return 1.0
        if self.seen >> bit & 1:
            return 0.0
        return self.share * (0.5 if near else 1.0)

    def danger(self, card: Card) -> float:
        """The chance the opponent can meld ``card`` with what it holds (0 … 1)."""
        declined = self.declined
        rank, suit = card.rank, card.suit
        near_rank = any(declined >> (s * 13 + rank - 1) & 1 for s in range(4))
        others = [self._held(rank, s, near_rank) for s in range(4) if s != suit]
        none = _product(1 - p for p in others)
        one = sum(p * _product(1 - q for j, q in enumerate(others) if j != i)
                  for i, p in enumerate(others))
        in_set = max(0.0, 1 - none - one)  # two or more of the rank

        def held(step: int) -> float:
            near = any(declined >> (suit * 13 + r - 1) & 1
                       for r in (rank + step - 1, rank + step + 1) if 1 <= r <= 13)
            return self._held(rank + step, suit, near)

        h = {step: held(step) for step in (-2, -1, 1, 2)}
        no_run = (1 - h[-2] * h[-1]) * (1 - h[-1] * h[1]) * (1 - h[1] * h[2])
        return 1 - (1 - in_set) * no_run


def _product(values: Iterable[float]) -> float:
    total = 1.0
    for v in values:
        total *= v
    return total


def _locked(game: GinGame) -> int:
    if game.taken is not None and game.taken_locked:
        return 1 << game.taken.index
    return 0


def _choose_discard(view: _View, locked: int, rng: random.Random, careful: bool) -> Card:
    best: tuple[float, float] | None = None
    chosen: list[Card] = []
    for card in sorted(set(view.hand), key=lambda c: c.index):
        if locked >> card.index & 1:
            continue
        rest = view.mask & ~(1 << card.index)
        if careful:
            score = hand_score(rest, view.unseen, view.game.knock_limit) + \
                DANGER * view.danger(card)
        else:
            score = float(_dw(rest))
        key = (round(score, 6), -card_value(card))
        if best is None or key < best:
            best, chosen = key, [card]
        elif key == best:
            chosen.append(card)
    return rng.choice(chosen)


def _knock_choice(game: GinGame, seat: int) -> Knock | None:
    """The knock with the least deadwood (gin and big gin first), or ``None``."""
    knocks = game.knocks(seat)
    if not knocks:
        return None
    big = [k for k in knocks if k.card is None]
    if big:
        return big[0]
    hand = list(game.hands[seat])
    if game.phase == "wall":
        hand.append(game.pile[-1])
    mask = mask_of(hand)
    return min(knocks, key=lambda k: (_dw(mask & ~(1 << k.card.index)) if k.card else 0,
                                      -card_value(k.card) if k.card else 0))


def _should_knock(game: GinGame, seat: int, knock: Knock, view: _View) -> bool:
    """Knock now, or hold on for gin / for a safer count (``standard``)."""
    hand = list(game.hands[seat])
    if game.phase == "wall":
        return True  # the last chance this hand
    mask = mask_of(hand)
    dead = _dw(mask & ~(1 << knock.card.index)) if knock.card else 0
    if dead == 0:
        return True
    stock = len(game.stock)
    # Undercut risk grows as the opponent's hand gets older and with our count.
    turns = 31 - stock
    opponent_picks = bin(view.picked).count("1")
    risk = UNDERCUT_RISK * (dead / 10) * min(1.0, turns / 14) + 0.08 * opponent_picks
    return not (risk > 0.55 and dead >= 6)


def _takes_simple(game: GinGame, seat: int, card: Card) -> bool:
    """SimpleGinRummyBot's rule: take the upcard when it ends up in a meld."""
    mask = mask_of(game.hands[seat])
    after, _ = _min_after(mask | 1 << card.index, 1 << card.index)
    return after < _dw(mask)


def _takes(game: GinGame, seat: int, card: Card, view: _View) -> bool:
    """Take ``card`` when the best deadwood after it (and a discard) is lower than a stock
    draw's is expected to be (averaged over the cards not seen)."""
    locked = 1 << card.index if game.taken_locked else 0
    taken, _ = _min_after(view.mask | 1 << card.index, locked)
    if not view.unseen:
        return taken < _dw(view.mask)
    drawn = sum(_after_draws(view.mask, view.unseen)) / len(view.unseen)
    return taken < drawn - TAKE_MARGIN


def _choose(game: GinGame, seat: int, rng: random.Random, careful: bool) -> Move:
    if game.auto[seat]:
        return Resume(seat)
    view = _View(game, seat)
    phase = game.phase
    if phase == "wall":
        knock = _knock_choice(game, seat)
        return knock if knock is not None else Pass(seat)
    if phase in ("offer", "draw"):
        top = game.pile[-1] if game.pile else None
        may_take = top is not None and Draw(seat, "discard") in game.legal_moves(seat)
        if may_take and top is not None:
            take = _takes(game, seat, top, view) if careful else _takes_simple(game, seat, top)
            if take:
                return Draw(seat, "discard")
        return Pass(seat) if phase == "offer" else Draw(seat, "stock")
    knock = _knock_choice(game, seat)
    if knock is not None and (not careful or _should_knock(game, seat, knock, view)):
        return knock
    return Discard(seat, _choose_discard(view, _locked(game), rng, careful))


def choose_move(game: GinGame, seat: int, rng: random.Random) -> Move:
    """``standard``: look-ahead, opponent-aware discards and knock timing."""
    return _choose(game, seat, rng, careful=True)


def choose_easy(game: GinGame, seat: int, rng: random.Random) -> Move:
    """``easy``: SimpleGinRummyBot's way (take to meld, throw the dearest deadwood)."""
    return _choose(game, seat, rng, careful=False)
