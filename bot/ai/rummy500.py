"""Computer players for Rummy 500.

``standard`` plays the way a sensible player of 500 Rum does:

* in the draw phase it weighs every legal take against a draw: a take scores
  the meld or lay-off it makes at once, but every card above the picked one
  comes too, and what cannot be melded counts against the hand (FHR-27);
* after acquiring it lays every meld of its best arrangement (table points
  are safe, and a hand left full is what costs when somebody goes out) and
  lays off what fits anyone's melds;
* it discards the loose card with the fewest partners in hand (a pair or two
  suited neighbours may still become a meld), the dearest among those, and
  rather not a card that fits a meld on the table (the next player could lay
  it off from the pile).

``easy`` takes only the top card, and only when it makes a meld with its
hand, lays off one card at a time, and throws its dearest loose card.

Both are pure given their ``random.Random`` (unused but for the signature):
the same position gives the same move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ..engine.arrange import best_arrangement
from ..engine.cards import Card, card_deck
from ..engine.drawdiscard import possible_layoffs
from ..engine.errors import IllegalMove
from ..engine.game import Move
from ..engine.melds import Meld, extend_meld
from ..engine.moves import Discard, Draw, LayOff, MeldDown, Take, placed
from ..engine.notation import remove_pieces
from ..engine.variants.rummy500 import Rummy500Game, card_value, table_values

DRAW_HOPE = 3.0
"""What a draw from the stock is worth over keeping the hand as it is (a random card
sometimes completes a meld)."""
LOOSE_WEIGHT = 0.8
"""How much a loose card counts against a hand while the hand goes on (it may still join a
meld, or be discarded before anybody goes out)."""


def _fits(card: Card, melds: Sequence[Meld], game: Rummy500Game) -> bool:
    """``card`` alone could be laid off on one of ``melds``."""
    for number, meld in enumerate(melds, start=1):
        try:
            extend_meld(meld, [card], game.rules, number)
        except IllegalMove:
            continue
        return True
    return False


def evaluate(game: Rummy500Game, hand: Sequence[Card], melds: Sequence[Meld]) -> float:
    """How good holding ``hand`` is with ``melds`` on the table, just before a discard.

    Melded and lay-off cards count plus (they will be laid now), the other cards
    minus (weighted by :data:`LOOSE_WEIGHT`), except the dearest loose card, which
    is the one discarded.
    """
    arrangement = best_arrangement(hand, game.rules, card_value)
    loose = game.own_all(arrangement.deadwood) if arrangement is not None else list(hand)
    plus = sum(card_value(c) for c in hand) - sum(card_value(c) for c in loose)
    fitting = [c for c in loose if _fits(c, melds, game)]
    rest = remove_pieces(loose, fitting)
    drop = max((card_value(c) for c in rest), default=0)
    return plus + sum(card_value(c) for c in fitting) - LOOSE_WEIGHT * (
        sum(card_value(c) for c in rest) - drop)


def _take_value(game: Rummy500Game, seat: int, take: Take) -> float:
    verdict = game.take_verdict(seat, take.card, take.with_cards, take.position, take.meld)
    hand = [*game.hands[seat], take.card, *verdict.received]
    melds = [m.meld for m in game.table]
    if verdict.meld is None:  # a free top card, kept in hand
        return evaluate(game, hand, melds)
    used = [take.card, *take.with_cards]
    hand = remove_pieces(hand, used)
    if verdict.onto is None:
        gained = sum(table_values(verdict.meld, game.options.aces))
        melds.append(verdict.meld)
    else:
        gained = sum(card_value(c) for c in used)
        melds[next(i for i, m in enumerate(game.table) if m.number == verdict.onto)] = \
            verdict.meld
    if not hand:
        return float("inf")  # the take goes out
    return gained + evaluate(game, hand, melds)


def choose_move(game: Rummy500Game, seat: int, rng: random.Random) -> Move:
    """The standard computer's move for ``seat`` (whose turn it must be)."""
    if game.to_move != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    if game.phase == game.draw_phase:
        melds = [m.meld for m in game.table]
        best: tuple[float, Move] = (evaluate(game, game.hands[seat], melds) + DRAW_HOPE,
                                    Draw(seat, "stock"))
        for take in game.takes(seat):
            value = _take_value(game, seat, take)
            if value > best[0]:
                best = (value, take)
        return best[1]
    return _play(game, seat, careful=True)


def choose_easy(game: Rummy500Game, seat: int, rng: random.Random) -> Move:
    """The easy computer's move: top-card melds only, no lay-offs, dearest loose discard."""
    if game.to_move != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    if game.phase == game.draw_phase:
        top = [t for t in game.takes(seat, depth=1) if t.meld is None and t.with_cards]
        return top[0] if top else Draw(seat, "stock")
    return _play(game, seat, careful=False)


def _play(game: Rummy500Game, seat: int, *, careful: bool) -> Move:
    """Meld the best arrangement, lay off, then discard (the first that the rules allow);
    ``careful``: several cards at once, and a discard that keeps partners and feeds nobody."""
    hand = list(game.hands[seat])
    arrangement = best_arrangement(hand, game.rules, card_value)
    if arrangement is not None and arrangement.melds:
        melds = [placed(*m.pieces) for m in arrangement.melds]
        for move in (MeldDown(seat, tuple(melds)), *(MeldDown(seat, (m,)) for m in melds)):
            if _accepted(game, move):
                return move
    loose = game.own_all(arrangement.deadwood) if arrangement is not None else hand
    groups = sorted(((len(g), t.number, g) for t in game.table
                     for g in possible_layoffs(loose, t.meld, game.rules, t.number)
                     if careful or len(g) == 1), key=lambda item: (-item[0], item[1]))
    for _, number, group in groups:
        layoff = LayOff(seat, placed(*group), number)
        if _accepted(game, layoff):
            return layoff
    return _discard(game, seat, hand, careful)


def _discard(game: Rummy500Game, seat: int, hand: list[Card], careful: bool) -> Move:
    """The loose card with the fewest partners, not feeding the table, the dearest."""
    locked = game.taken if game.taken_locked else None
    options = sorted({c for c in hand if c != locked}, key=lambda c: c.index)
    melds = [m.meld for m in game.table]

    unseen = _unseen(game, seat) if careful else Counter[Card]()

    def cost(card: Card) -> tuple[int, int, int, int, int]:
        feeds = int(careful and _fits(card, melds, game))
        partners = _partners(card, hand) if careful else 0
        danger = _danger(card, unseen) if careful else 0
        return (feeds, partners, danger, -card_value(card), card.index)

    arrangement = best_arrangement(hand, game.rules, card_value)
    loose = set(arrangement.deadwood) if arrangement is not None else set(hand)
    pool = [c for c in options if c in loose and not c.is_joker] or \
        [c for c in options if not c.is_joker] or options
    return Discard(seat, min(pool, key=cost))


def _unseen(game: Rummy500Game, seat: int) -> Counter[Card]:
    """The cards ``seat`` has not seen: neither in its hand, the pile nor on the table."""
    seen = Counter(game.hands[seat]) + Counter(game.pile)
    seen.update(c for m in game.table for c in game.own_all(m.meld.pieces))
    return Counter(card_deck(game.packs)) - seen


def _danger(card: Card, unseen: Counter[Card]) -> int:
    """How many ways cards nobody has shown could make a meld with ``card`` (an opponent
    holding them would take it from the pile)."""
    if card.is_joker:
        return 0
    ways = int(sum(n for c, n in unseen.items() if c.rank == card.rank and c.suit != card.suit)
               >= 2)
    for low, high in ((-2, -1), (-1, 1), (1, 2)):
        pair = [_neighbour(card, low), _neighbour(card, high)]
        ways += all(c is not None and unseen[c] for c in pair)
    return ways


def _neighbour(card: Card, step: int) -> Card | None:
    rank = card.rank + step
    if rank == 14:
        rank = 1
    return Card(rank, card.suit) if 1 <= rank <= 13 else None


def _partners(card: Card, hand: Sequence[Card]) -> int:
    """Cards in hand that could share a meld with ``card``: same rank, or same suit close by."""
    return sum(1 for other in hand if other != card and not other.is_joker and (
        other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)))


def _accepted(game: Rummy500Game, move: Move) -> bool:
    try:
        game.apply(move)
    except IllegalMove:
        return False
    return True
