"""A computer player for Penang Rummy, playing the way the seed describes good players.

Penang hands are dead from the deal: nobody draws, so every action spends a
card for good, and a player who cannot act at the start of a turn is Dead
and stuck with the points in hand. Good players therefore:

* **keep the hand alive**: one action per turn, and a single card rather than
  a whole group (lay-offs at the end of a run first, since somebody else may
  take that end; lay-offs onto sets keep, so they are saved for later);
* **do not meld when they need not**: a new meld gives every other player
  somewhere to lay off; when one is needed, a meld the computer can itself
  build on later goes first, one that only helps others after a spare joker;
* **take substitutions that free a joker**: a joker fits almost anywhere, so
  a natural card traded for one is a future action in the bank;
* **shed jokers and high cards when an opponent is close to going out** (or
  when every opponent is Dead and only points matter): then it plays every
  action it can, the most valuable cards first;
* **go out when they can**: if playing everything now empties the hand, it does.

``choose_move`` is pure and deterministic given the game (the ``rng`` is part
of the common signature and unused). The "play everything" sequence is found
by applying moves to copies of the game, so every move returned is legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ..engine.arrange import Arrangement, best_arrangement
from ..engine.cards import Piece
from ..engine.errors import IllegalMove
from ..engine.game import Move
from ..engine.melds import extend_meld
from ..engine.moves import Done, LayOff, MeldDown, Swap, placed
from ..engine.shedding import LayoffTargets, new_meld_candidates, single_layoffs
from ..engine.table import TableMeld
from ..engine.variants.penang import (
    DeclareDead,
    PenangGame,
    card_value,
    list_swaps,
    penang_rules,
)

DANGER_CARDS = 5
"""An opponent still in with this many cards or fewer may go out soon: shed now."""


def choose_move(game: PenangGame, seat: int, rng: random.Random | None = None) -> Move:
    """The computer's next move for ``seat`` (whose turn it must be)."""
    shedding = _shedding_time(game, seat)
    if shedding or _may_go_out(game, seat):
        plan, goes_out = shed_plan(game, seat)
        if goes_out or shedding:
            if plan:
                return plan[0]
            return Done(seat) if game.actions else _fallback(game, seat)
    swaps = list_swaps(game, seat)
    if swaps:
        return swaps[0]  # a joker in hand is a future action in the bank
    if game.actions:
        return Done(seat)
    return _keep_alive_action(game, seat) or _fallback(game, seat)


def _shedding_time(game: PenangGame, seat: int) -> bool:
    """An opponent is close to going out, or every opponent is Dead."""
    others = [s for s in game.live_seats() if s != seat]
    return not others or any(len(game.hands[s]) <= DANGER_CARDS for s in others)


def _may_go_out(game: PenangGame, seat: int) -> bool:
    """A quick necessary condition for emptying the hand this turn.

    Every natural card must belong to some 3-card meld of the hand (any card
    of a longer meld does) or fit the table, possibly after other cards of
    ours extend a run; before the passport there must be a meld at all.
    """
    hand = game.hands[seat]
    rules = game.rules
    melds = new_meld_candidates(hand, rules)
    if not game.passport[seat] and not melds:
        return False
    placeable = {p for m in melds for p in m}
    table = list(game.table)
    naturals = [p for p in hand if not p.is_joker and p not in placeable]
    progress = True
    while naturals and progress:
        progress = False
        targets = LayoffTargets.of(table, rules)
        for piece in naturals:
            numbers = targets.fitting(piece)
            if numbers:
                index = next(i for i, m in enumerate(table) if m.number == numbers[0])
                grown = extend_meld(table[index].meld, [piece], rules, numbers[0])
                table[index] = TableMeld(numbers[0], table[index].owner, grown)
                naturals.remove(piece)
                progress = True
                break
    return not naturals


# ---------------------------------------------------------------------------
# Playing everything: the exact best arrangement, then every lay-off
# ---------------------------------------------------------------------------

_PLANS: dict[tuple, tuple[tuple[Move, ...], bool]] = {}
"""Memo of :func:`shed_plan` by position: the plan is a function of the position alone."""
_PLANS_LIMIT = 4096


def _key(game: PenangGame, seat: int) -> tuple:
    return (game.seed, game.game_number, seat, game.options.ace_low, game.passport[seat],
            tuple(game.hands[seat]),
            tuple((m.number, m.meld.pieces, m.meld.faces) for m in game.table))


def shed_plan(game: PenangGame, seat: int) -> tuple[list[Move], bool]:
    """Moves that shed the most points this turn, and whether they empty the hand.

    Swaps come first (a joker is worth more in hand than the card it frees).
    Then two orders are tried on copies of the game: the melds of the exact
    best arrangement of the hand then every lay-off that fits, or the
    lay-offs of natural cards first, then the best arrangement of the rest,
    then lay-offs again. Going out wins; otherwise the fewest points left.
    """
    key = _key(game, seat)
    cached = _PLANS.get(key)
    if cached is not None:
        return list(cached[0]), cached[1]
    best: tuple[int, list[Move], list[PenangGame], bool] | None = None
    orders = (False, True) if game.passport[seat] else (False,)
    for layoffs_first in orders:
        moves, states, left, out = _simulate(game, seat, layoffs_first)
        if best is None or (out, -left) > (best[3], -best[0]):
            best = (left, moves, states, out)
        if out:
            break
    assert best is not None
    _, moves, _states, out = best
    if len(_PLANS) > _PLANS_LIMIT:
        _PLANS.clear()
    _PLANS[key] = (tuple(moves), out)
    return moves, out


@lru_cache(maxsize=4096)
def _arrangement(hand: tuple[Piece, ...], ace_low: bool) -> Arrangement | None:
    """The exact least-points arrangement of a hand (memoised: plans repeat it)."""
    return best_arrangement(hand, penang_rules(ace_low), card_value)


class _Simulation:
    """A turn played on copies of the game: the moves, the states before each, and the last."""

    def __init__(self, game: PenangGame, seat: int) -> None:
        self.seat = seat
        self.current = game
        self.number = game.game_number
        self.moves: list[Move] = []
        self.states: list[PenangGame] = []

    @property
    def ended(self) -> bool:
        """The game ended: we went out."""
        return self.current.is_over or self.current.game_number != self.number

    def play(self, move: Move) -> bool:
        """Apply ``move``; False when it is refused or ends the game."""
        try:
            after, _ = self.current.apply(move)
        except IllegalMove:
            return False
        self.states.append(self.current)
        self.moves.append(move)
        self.current = after
        return not self.ended

    def swap_all(self) -> None:
        while self.current.passport[self.seat] and not self.ended:
            swaps = list_swaps(self.current, self.seat)
            if not swaps or not self.play(swaps[0]):
                return

    def meld_best(self) -> None:
        game = self.current
        arrangement = _arrangement(tuple(sorted(game.hands[self.seat])), game.options.ace_low)
        for meld in arrangement.melds if arrangement else ():
            if self.ended or not self.play(
                    MeldDown(self.seat, (tuple(meld.annotated(game.rules)),))):
                return

    def lay_off_all(self, naturals_only: bool) -> None:
        """Lay off single cards, the most valuable first, while any fits."""
        while not self.ended and self.current.passport[self.seat]:
            game = self.current
            fits = [(p, n) for p, n in single_layoffs(game.hands[self.seat], game.table,
                                                      game.rules)
                    if not (naturals_only and p.is_joker)]
            if not fits:
                return
            piece, number = max(fits, key=lambda pn: (card_value(pn[0]), -pn[1]))
            if not self.play(LayOff(self.seat, placed(piece), number)):
                return


def _simulate(game: PenangGame, seat: int, layoffs_first: bool
              ) -> tuple[list[Move], list[PenangGame], int, bool]:
    sim = _Simulation(game, seat)
    sim.swap_all()
    if layoffs_first:
        sim.lay_off_all(naturals_only=True)
    if not sim.ended:
        sim.meld_best()
    sim.lay_off_all(naturals_only=False)
    if sim.ended:
        return sim.moves, sim.states, 0, True
    left = sum(card_value(c) for c in sim.current.hands[seat])
    return sim.moves, sim.states, left, False


# ---------------------------------------------------------------------------
# Keeping the hand alive: one action, a single card where possible
# ---------------------------------------------------------------------------


def _keep_alive_action(game: PenangGame, seat: int) -> Move | None:
    hand = game.hands[seat]
    rules = game.rules
    melds = new_meld_candidates(hand, rules)
    if not game.passport[seat]:
        if not melds:
            return None
        return _meld_move(game, seat, melds)
    layoffs = single_layoffs(hand, game.table, rules)
    natural = [(p, n) for p, n in layoffs if not p.is_joker]
    if natural:
        piece, number = max(natural, key=lambda pn: (_perishable(game, pn[1]),
                                                     card_value(pn[0]), -pn[1]))
        return LayOff(seat, placed(piece), number)
    plain = [m for m in melds if not _jokers(m)]
    useful = [m for m in plain if _helps_me(game, seat, m)]
    jokers = [(p, n) for p, n in layoffs if p.is_joker]
    if useful:
        return _meld_move(game, seat, useful)
    if jokers:  # a spare joker before a meld that would only help the others
        piece, number = max(jokers, key=lambda pn: (_perishable(game, pn[1]), -pn[1]))
        return LayOff(seat, placed(piece), number)
    if melds:
        return _meld_move(game, seat, plain or melds)
    return None


def _meld_move(game: PenangGame, seat: int, melds: Sequence[Sequence[Piece]]) -> MeldDown:
    return MeldDown(seat, (placed(*min(melds, key=lambda m: _meld_key(game, seat, m))),))


def _jokers(pieces: Sequence[Piece]) -> int:
    return sum(1 for p in pieces if p.is_joker)


def _perishable(game: PenangGame, number: int) -> int:
    """1 for a run (its ends may be taken by others), 0 for a set (it takes its rank forever)."""
    return int(game.table[number - 1].meld.is_run)


def _meld_key(game: PenangGame, seat: int, meld: Sequence[Piece]) -> tuple:
    """Fewest jokers, then melds we can build on ourselves, then runs, then the dearest."""
    is_set = len({p.rank for p in meld if not p.is_joker}) == 1 and not _reads_as_run(meld)
    return (_jokers(meld), not _helps_me(game, seat, meld), is_set,
            -sum(card_value(p) for p in meld))


def _reads_as_run(meld: Sequence[Piece]) -> bool:
    naturals = [p for p in meld if not p.is_joker]
    return len({p.suit for p in naturals}) == 1 and len({p.rank for p in naturals}) == \
        len(naturals)


def _helps_me(game: PenangGame, seat: int, meld: Sequence[Piece]) -> bool:
    """Once laid, would ``meld`` take another card we hold (a lay-off for a later turn)?"""
    try:
        (laid,) = game.check_meld(seat, [placed(*meld)])
    except IllegalMove:
        return False
    rest = list(game.hands[seat])
    for piece in meld:
        rest.remove(game.own(piece))
    targets = LayoffTargets.of([TableMeld(0, seat, laid)], game.rules)
    return any(targets.takes(p) for p in rest if not p.is_joker)


def _fallback(game: PenangGame, seat: int) -> Move:
    """Any legal move other than conceding, else concede."""
    for move in game.legal_moves(seat):
        if not isinstance(move, DeclareDead | Swap):
            return move
    return DeclareDead(seat)
