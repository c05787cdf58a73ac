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
from collections.abc import Sequence

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
LOOK_AHEAD = 1.6
"""How many draws' worth of improvement a hand is credited with."""
DANGER = 0.35
"""Share of a card's value charged when the opponent is likely to use it."""
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


def potential(mask: int, unseen: Sequence[Card]) -> float:
    """Average lowering of the best deadwood one draw of an unseen card would bring."""
    if not unseen:
        return 0.0
    now = _dw(mask)
    total = 0
    for card in unseen:
        if not _related(card, mask):
            continue
        after = discard_deadwood(mask | 1 << card.index)
        if after < now:
            total += now - after
    return total / len(unseen)


def hand_score(mask: int, unseen: Sequence[Card]) -> float:
    """Lower is better: deadwood less the improvement the next draws may bring."""
    return _dw(mask) - LOOK_AHEAD * potential(mask, unseen)


class _View:
    """What ``seat`` knows: its hand, the cards it has not seen, the opponent's picks."""

    def __init__(self, game: GinGame, seat: int) -> None:
        self.game, self.seat = game, seat
        other = 1 - seat
        self.hand = list(game.hands[seat])
        self.mask = mask_of(self.hand)
        self.picked = mask_of(game.known[other]) if game.known else 0
        thrown = game.discards[other] if game.discards else []
        self.thrown = mask_of(thrown)
        seen = self.mask | mask_of(game.pile) | self.picked
        self.seen = seen
        self.unseen = [c for c in _DECK if not seen >> c.index & 1]

    def danger(self, card: Card) -> float:
        """How likely the opponent can use ``card`` (0 … 1)."""
        risk = 0.0
        picked, seen, thrown = self.picked, self.seen | mask_of(self.game.pile), self.thrown
        same_rank = [c for c in range(4) if c != card.suit]
        held_rank = sum(picked >> (s * 13 + card.rank - 1) & 1 for s in same_rank)
        free_rank = sum(not seen >> (s * 13 + card.rank - 1) & 1 for s in same_rank)
        if held_rank:
            risk = max(risk, 0.9 if held_rank >= 2 else 0.55)
        elif free_rank >= 2:
            risk = max(risk, 0.2)
        for step in (-2, -1, 1, 2):
            rank = card.rank + step
            if not 1 <= rank <= 13:
                continue
            bit = card.suit * 13 + rank - 1
            if picked >> bit & 1:
                risk = max(risk, 0.7 if abs(step) == 1 else 0.4)
        near = [card.suit * 13 + r - 1 for r in (card.rank - 1, card.rank + 1) if 1 <= r <= 13]
        if near and all(seen >> b & 1 for b in near) and not held_rank and free_rank < 2:
            risk = min(risk, 0.05)
        if thrown >> card.index & 1 or any(
                thrown >> (s * 13 + card.rank - 1) & 1 for s in same_rank):
            risk *= 0.5
        return risk


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
            score = hand_score(rest, view.unseen) + DANGER * card_value(card) * \
                view.danger(card)
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


def _take_gain(view: _View, card: Card, locked_taken: bool) -> float:
    """How much better the hand is with ``card`` (best discard after) than now."""
    mask = view.mask | 1 << card.index
    locked = 1 << card.index if locked_taken else 0
    unseen = [c for c in view.unseen if c != card]
    best = None
    rest = mask & ~locked
    while rest:
        low = rest & -rest
        rest ^= low
        score = hand_score(mask ^ low, unseen)
        best = score if best is None else min(best, score)
    assert best is not None
    return hand_score(view.mask, view.unseen) - best


def _takes_simple(game: GinGame, seat: int, card: Card) -> bool:
    """SimpleGinRummyBot's rule: take the upcard when it ends up in a meld."""
    mask = mask_of(game.hands[seat])
    after, _ = _min_after(mask | 1 << card.index, 1 << card.index)
    return after < _dw(mask)


def _takes(game: GinGame, seat: int, card: Card, view: _View) -> bool:
    gain = _take_gain(view, card, game.taken_locked)
    # A stock card brings the look-ahead's improvement on average, and hides what we hold.
    return gain > potential(view.mask, view.unseen) * 1.0 + 0.5


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
