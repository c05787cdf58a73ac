"""A computer player for Indian 13-card Rummy, and the random legal player it is measured against.

It plays the way a careful human does: build a pure sequence first, then a
second sequence, keep jokers, throw away high cards that connect to nothing,
take the open card only when it really helps, declare as soon as the hand is
a valid show, and drop a hopeless hand at its first turn (a first drop costs
20, a hopeless hand usually costs 80).

Every judgement is an exact best-arrangement search (``bot.engine.arrange``)
of a 13-card hand under the Indian minimums (two sequences, one pure), so it
never breaks a finished group by mistake. :func:`choose_move` is pure and
deterministic given its ``random.Random`` (used only to break exact ties).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..engine.arrange import best_arrangement
from ..engine.cards import Card
from ..engine.game import Move
from ..engine.melds import MeldRules
from ..engine.moves import Discard, Draw
from ..engine.notation import remove_pieces
from ..engine.variants.indian import (
    Declare,
    Drop,
    IndianGame,
    card_value,
    indian_rules,
    value_table,
)

NEEDS_SECOND_SEQUENCE = 12
"""Extra cost of a hand with a pure sequence but no second sequence."""
NEEDS_PURE_SEQUENCE = 25
"""Extra cost of a hand without a pure sequence."""
JOKER_BONUS = 4
"""How much each joker held is worth beyond the groups it already completes."""
CONNECTED = 0.55
"""Share of its value a loose card still costs when it is one card short of a group."""
HOPELESS_SCORE = 80
"""A hand without joker or pure sequence scoring this much or more is dropped at once."""
TAKE_OPEN_MARGIN = 2.0
"""How much the open card must improve the hand before we reveal we want it."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """How good 13 cards are: ``score`` (lower is better) and whether they are a valid show."""

    score: float
    valid: bool
    pure: bool
    """The hand holds a pure sequence."""
    loose: tuple[Card, ...] = ()
    """Ordinary cards in no group of the best arrangement."""


def assess(cards: Sequence[Card], rules: MeldRules) -> Assessment:
    """Score 13 cards: the deadwood of their best arrangement, adjusted for what is missing.

    Loose cards that are one card short of a group (two of a rank, or two
    cards of a suit at most two ranks apart) cost only part of their value;
    a missing pure or second sequence costs extra; jokers are a bonus.
    """
    return _assess(tuple(sorted(cards, key=lambda c: c.index)), rules.wild_rank)


@lru_cache(maxsize=16384)
def _assess(cards: tuple[Card, ...], wild_rank: int | None) -> Assessment:
    rules = indian_rules(wild_rank)
    value = value_table(wild_rank).__getitem__
    arrangement = None
    penalty = NEEDS_PURE_SEQUENCE
    if has_pure_run(cards):
        penalty = 0
        arrangement = best_arrangement(cards, rules, value, min_runs=2, min_pure_runs=1)
        if arrangement is None:
            penalty = NEEDS_SECOND_SEQUENCE
            arrangement = best_arrangement(cards, rules, value, min_runs=1, min_pure_runs=1)
    if arrangement is None:
        penalty = NEEDS_PURE_SEQUENCE
        arrangement = best_arrangement(cards, rules, value)
    assert arrangement is not None
    loose = tuple(IndianGame.own_all(c for c in arrangement.deadwood if not rules.is_joker(c)))
    jokers = sum(1 for c in cards if rules.is_joker(c))
    score: float = penalty - JOKER_BONUS * jokers
    for card in loose:
        score += value(card) * (CONNECTED if _connected(card, loose) else 1.0)
    return Assessment(score, penalty == 0 and not loose, penalty != NEEDS_PURE_SEQUENCE, loose)


def has_pure_run(cards: Sequence[Card]) -> bool:
    """Three cards of one suit in consecutive ranks (A low or high): a pure sequence exists.

    Wild-rank cards count in their own place (IND-12); printed jokers never.
    """
    ranks: dict[int, set[int]] = {}
    for card in cards:
        if not card.is_joker:
            ranks.setdefault(card.suit, set()).add(card.rank)
    for present in ranks.values():
        if 1 in present:
            present.add(14)
        if any(r in present and r + 1 in present and r + 2 in present for r in range(1, 13)):
            return True
    return False


def _connected(card: Card, loose: Sequence[Card]) -> bool:
    """``card`` and another loose card are two thirds of a set or a sequence."""
    for other in loose:
        if other is card or other == card:
            continue
        if other.rank == card.rank:
            return True
        if other.suit == card.suit and _gap(card.rank, other.rank) <= 2:
            return True
    return False


def _gap(a: int, b: int) -> int:
    """Rank distance with the ace at either end (never around the corner K-A-2 both ways)."""
    distance = abs(a - b)
    if 1 in (a, b):
        distance = min(distance, abs(14 - max(a, b)))
    return distance


def hopeless(cards: Sequence[Card], rules: MeldRules) -> bool:
    """A hand worth a first drop: no joker, no pure sequence, and a poor score.

    In self-play such hands lose about 50 points on average, more than the
    20 a first drop costs.
    """
    if any(rules.is_joker(c) for c in cards):
        return False
    verdict = assess(cards, rules)
    return not verdict.pure and verdict.score >= HOPELESS_SCORE


def best_discard(game: IndianGame, cards: Sequence[Card], rng: random.Random,
                 keep: Card | None = None,
                 candidates: Sequence[Card] | None = None) -> tuple[Card, Assessment]:
    """The card whose discard leaves the best 13 (ties: the dearer card, then at random).

    Jokers are kept, unless only a joker's discard leaves a valid show.
    ``candidates`` limits the cards considered (default: every ordinary card).
    """
    rules = game.rules
    pool = candidates if candidates is not None else [c for c in cards
                                                        if not rules.is_joker(c)]
    best: list[tuple[tuple[float, int], Card, Assessment]] = []
    for card in sorted(set(pool), key=lambda c: c.index):
        if card == keep:
            continue
        verdict = assess(remove_pieces(cards, [card]), rules)
        key = (verdict.score, -card_value(card, rules))
        if not best or key < best[0][0]:
            best = [(key, card, verdict)]
        elif key == best[0][0]:
            best.append((key, card, verdict))
    if not best or not best[0][2].valid:
        for joker in sorted({c for c in cards if rules.is_joker(c)}, key=lambda c: c.index):
            verdict = assess(remove_pieces(cards, [joker]), rules)
            if verdict.valid or not best:
                best = [((verdict.score, 0), joker, verdict)]
                if verdict.valid:
                    break
    if not best:  # nothing but the kept card: fall back to any card
        card = next(c for c in cards if c != keep) if len(set(cards)) > 1 else cards[0]
        return card, assess(remove_pieces(cards, [card]), rules)
    _, card, verdict = best[0] if len(best) == 1 else rng.choice(best)
    return card, verdict


def choose_move(game: IndianGame, seat: int, rng: random.Random) -> Move:
    """The computer's next move for ``seat`` (whose turn it must be)."""
    if game.to_move != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    hand = list(game.hands[seat])
    rules = game.rules
    if game.phase == "draw":
        if not game.has_drawn[seat] and hopeless(hand, rules):
            return Drop(seat)
        return Draw(seat, "open" if _wants_open(game, seat, hand, rng) else "closed")
    finish, verdict = best_discard(game, hand, rng)
    if verdict.valid:
        return Declare(seat, finish)
    return Discard(seat, finish)


def _wants_open(game: IndianGame, seat: int, hand: list[Card], rng: random.Random) -> bool:
    """Take the open card when it completes a show or clearly improves the hand."""
    if Draw(seat, "open") not in game.legal_moves(seat):
        return False
    top = game.open[-1]
    rules = game.rules
    if rules.is_joker(top):
        return True
    if not any(c.rank == top.rank or (c.suit == top.suit and _gap(c.rank, top.rank) <= 2)
               for c in hand if not rules.is_joker(c)):
        return False
    now = assess(hand, rules)
    # Taking it means giving up a card that is loose now (or any card when few are loose).
    pool = now.loose if len(now.loose) >= 3 else None
    _, after = best_discard(game, [*hand, top], rng, keep=top, candidates=pool)
    return after.valid or after.score < now.score - TAKE_OPEN_MARGIN


def cost(game: IndianGame, seat: int) -> float:
    """How bad ``seat``'s hand is for the strong player's search: :func:`assess`'s score."""
    return assess(game.hands[seat], game.rules).score
