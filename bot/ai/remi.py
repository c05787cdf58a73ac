"""A computer player for Indonesian Remi.

It plays the way a careful human does:

* it closes as soon as it can, with the closing card that scores most (the
  bonus is 10 × the closing card, so an ace beats a numeral);
* it takes from the pile only when the take leaves a better hand than a draw
  would (the combination laid counts plus for good, and a first sequence
  backs every set);
* it discards the card whose loss hurts least: the hand is judged by its
  exact best arrangement (REM-24, which already counts unbacked sets minus,
  so a sequence that backs sets is kept) plus a share of the value of loose
  cards that are one card short of a combination; ties go to the dearer card.

:func:`choose_move` is pure and deterministic given its ``random.Random``
(used only to break exact ties).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ..engine.cards import Card
from ..engine.game import Move
from ..engine.melds import Meld
from ..engine.moves import Discard, Draw, Resume
from ..engine.notation import remove_pieces
from ..engine.variants.remi import (
    Close,
    RemiGame,
    Take,
    best_score,
    card_order,
    card_value,
    covering,
    unfit_cards,
)

CONNECTED = 0.8
"""Share of its value a loose card gets back when it is one card short of a combination."""
TAKE_MARGIN = 2.0
"""How much better than a draw a take must leave the hand (a draw brings a card too)."""


def _line(rank: int) -> int:
    """Which sequence line a rank is on: 0 for 2–10, 1 for J Q K, -1 for the ace (none)."""
    return -1 if rank == 1 else 1 if rank >= 11 else 0


def _connected(card: Card, loose: Sequence[Card]) -> bool:
    """``card`` and another loose card are two thirds of a set or a sequence."""
    for other in loose:
        if other == card:
            continue
        if other.rank == card.rank:
            return True
        if (other.suit == card.suit and _line(card.rank) == _line(other.rank) >= 0
                and abs(card.rank - other.rank) <= 2):
            return True
    return False


def evaluate(hand: Sequence[Card], table: Sequence[Meld] = ()) -> float:
    """How good ``hand`` is with the seat's own ``table`` melds (higher is better)."""
    key = tuple(sorted(hand, key=lambda c: c.index))
    return _evaluate(key, tuple(table))


@lru_cache(maxsize=32768)
def _evaluate(hand: tuple[Card, ...], table: tuple[Meld, ...]) -> float:
    score = best_score(hand, table)
    loose = score.minus
    return score.total + sum(CONNECTED * card_value(c) for c in loose if _connected(c, loose))


def best_discard(hand: Sequence[Card], table: Sequence[Meld], rng: random.Random
                 ) -> tuple[Card, float]:
    """The card whose discard leaves the best hand (ties: the highest card, then at random)."""
    scored: dict[Card, float] = {}
    for card in set(hand):
        scored[card] = evaluate(remove_pieces(hand, [card]), table)
    best = max(scored.values())
    tied = [c for c, v in scored.items() if v == best]
    top = max(card_order(c) for c in tied)
    finalists = sorted((c for c in tied if card_order(c) == top), key=lambda c: c.index)
    return rng.choice(finalists) if len(finalists) > 1 else finalists[0], best


def choose_move(game: RemiGame, seat: int, rng: random.Random) -> Move:
    """The computer's next move for ``seat`` (whose turn it must be)."""
    if game.auto[seat]:
        return Resume(seat)
    if game.to_move != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    hand = list(game.hands[seat])
    table = game.own_melds(seat)
    if game.phase == "acquire":
        take = _best_take(game, seat, hand, table, rng)
        return take if take is not None else Draw(seat, "stock")
    closes = game.close_options(seat)
    if closes:
        return Close(seat, closes[0].card)
    card, _ = best_discard(hand, table, rng)
    return Discard(seat, card)


def _best_take(game: RemiGame, seat: int, hand: list[Card], table: list[Meld],
               rng: random.Random) -> Take | None:
    """The take that leaves the best hand, if it beats drawing."""
    best: tuple[float, Take] | None = None
    for take in game.takes(seat):
        verdict = game.take_verdict(seat, take.card, take.with_cards)
        assert verdict.meld is not None
        after = [*remove_pieces(hand, take.with_cards), *verdict.received]
        melds = [*table, verdict.meld]
        if _closes(after, melds):
            value = float("inf")
        else:
            _, value = best_discard(after, melds, rng)
        if best is None or value > best[0]:
            best = (value, take)
    if best is None:
        return None
    return best[1] if best[0] >= evaluate(hand, table) + TAKE_MARGIN else None


def _closes(after: list[Card], melds: list[Meld]) -> bool:
    """After a take, some card of ``after`` could close at once (REM-19)."""
    unfit = unfit_cards(after)
    if len(unfit) > 1:
        return False
    for card in set(unfit or after):
        rest = remove_pieces(after, [card])
        if not unfit_cards(rest) and covering(rest, melds) is not None:
            return True
    return False


def cost(game: RemiGame, seat: int) -> float:
    """How bad ``seat``'s hand is for the strong player's search (:func:`evaluate`, negated)."""
    return -evaluate(game.hands[seat], game.own_melds(seat))
