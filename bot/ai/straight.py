"""A computer player for Straight Rummy.

It plays the way a sensible human does: take the discard when it improves the
hand, lay down every meld of the best arrangement, lay off what fits the
table, and discard the dearest card that is not part of a meld. Choices are
exact deadwood evaluations (the shared arrangement search), so it never
breaks a meld by mistake.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.arrange import best_arrangement, deadwood_value
from ..engine.cards import Card
from ..engine.drawdiscard import possible_layoffs
from ..engine.errors import IllegalMove
from ..engine.game import Move
from ..engine.moves import Discard, Draw, LayOff, MeldDown, placed
from ..engine.notation import remove_pieces
from ..engine.variants.straight import StraightGame

_LET_GO = 0.2
"""How often the computer gives up a loose card other than its worst (see ``_discard``)."""


def choose_move(game: StraightGame, seat: int, rng: random.Random) -> Move:
    """The computer's next move for ``seat`` (whose turn it must be)."""
    if game.phase == "draw":
        return _choose_draw(game, seat)
    for move in (*_melds(game, seat), *_layoffs(game, seat), _discard(game, seat, rng)):
        if move is not None and _accepted(game, move):
            return move
    return rng.choice(game.legal_moves(seat))


def _deadwood(game: StraightGame, cards: Sequence[Card]) -> int:
    return deadwood_value(cards, game.rules, game.value)


def _best_after_discard(game: StraightGame, cards: Sequence[Card],
                        keep: Card | None = None) -> int:
    """The least deadwood reachable by discarding one card (never ``keep``)."""
    best = None
    for card in set(cards):
        if card == keep:
            continue
        value = _deadwood(game, remove_pieces(cards, [card]))
        if best is None or value < best:
            best = value
    return best if best is not None else _deadwood(game, cards)


def _choose_draw(game: StraightGame, seat: int) -> Draw:
    """Take the discard when it lowers our deadwood or can be laid off at once."""
    if not game.discard:
        return Draw(seat, "stock")
    top = game.discard[-1]
    hand = list(game.hands[seat])
    now = _deadwood(game, hand)
    keep = top if game.options.no_discard_of_taken_card else None
    if _best_after_discard(game, [*hand, top], keep=keep) < now:
        return Draw(seat, "discard")
    may_lay_off = not game.options.meld_before_layoff or game.has_melded[seat]
    if may_lay_off and any(possible_layoffs([top], m.meld, game.rules, m.number)
                           for m in game.table):
        return Draw(seat, "discard")
    return Draw(seat, "stock")


def _melds(game: StraightGame, seat: int) -> list[Move]:
    """Every meld of the best arrangement, in one command unless the options forbid it."""
    arrangement = best_arrangement(game.hands[seat], game.rules, game.value)
    if arrangement is None or not arrangement.melds:
        return []
    melds = [placed(*m.pieces) for m in arrangement.melds]
    moves: list[Move] = []
    if not game.options.one_meld_per_turn and len(melds) > 1:
        moves.append(MeldDown(seat, tuple(melds)))
    moves.extend(MeldDown(seat, (m,)) for m in melds)
    return moves


def _layoffs(game: StraightGame, seat: int) -> list[Move]:
    """Lay off cards that are not already part of a meld in hand (the largest groups first)."""
    hand = game.hands[seat]
    arrangement = best_arrangement(hand, game.rules, game.value)
    loose = game.own_all(arrangement.deadwood) if arrangement else list(hand)
    moves: list[tuple[int, Move]] = []
    for table_meld in game.table:
        for group in possible_layoffs(loose, table_meld.meld, game.rules, table_meld.number):
            moves.append((len(group), LayOff(seat, placed(*group), table_meld.number)))
    moves.sort(key=lambda item: -item[0])
    return [move for _, move in moves]


def _discard(game: StraightGame, seat: int, rng: random.Random) -> Move | None:
    """Discard the card whose loss leaves the least deadwood.

    Ties go to the card with the fewest partners in hand (a pair or two
    suited neighbours may become a meld), then to the dearest. Now and then
    (one time in five) it lets go of another loose card instead: when every
    player keeps the low cards the others need and throws back each high card
    drawn, a hand would otherwise circle the reshuffled stock for ever.
    """
    hand = list(game.hands[seat])
    taken = game.taken if game.options.no_discard_of_taken_card else None
    options = [c for c in set(hand) if c != taken]
    if not options:
        return None
    scored = sorted((_deadwood(game, remove_pieces(hand, [c])), _partners(c, hand),
                     -game.value(c), c.index, c) for c in options)
    loose = [item for item in scored if item[0] == _deadwood(game, hand) - game.value(item[4])]
    if len(loose) > 1 and rng.random() < _LET_GO:
        return Discard(seat, rng.choice(loose[1:])[4])
    return Discard(seat, scored[0][4])


def _partners(card: Card, hand: Sequence[Card]) -> int:
    """Cards in hand that could share a meld with ``card``: same rank, or same suit close by."""
    return sum(1 for other in hand if other != card and (
        other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)))


def _accepted(game: StraightGame, move: Move) -> bool:
    try:
        game.apply(move)
    except IllegalMove:
        return False
    return True
