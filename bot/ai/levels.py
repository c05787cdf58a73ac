"""The three levels of computer player, built once for every variant from its standard one.

:func:`levels` turns a variant's *standard* player (a pure ``choose_move(game,
seat, rng)``) into the three levels the lobby offers, so a new variant gets all
three with its registry line:

* ``easy`` (:class:`Easy`): the standard player with a beginner's blind spots.
  On some moves it misses the standard choice and plays another legal move of
  the same kind instead (a different discard, the other draw, another meld or
  lay-off); now and then it overlooks a meld or lay-off and ends its turn. It
  never makes a move of a kind the standard player would not make there, so it
  never shows a wrong hand or drops by accident: it plays sensibly, but loosely.
* ``standard``: the variant's own player.
* ``strong`` (:class:`Strong`): determinized Monte Carlo search. For each
  sample it redeals every card its seat cannot see (:meth:`Game.redeal_unseen`,
  so it never reads a hidden card), plays each candidate move there, plays on
  with the standard player in every seat for a horizon, and scores the result
  for its seat; it plays the candidate with the best average, the standard
  player's move unless another is better by more than the noise of the
  samples. Samples are shared by all candidates (common random numbers), so the
  comparison is between moves, not between lucky and unlucky deals.

Search is budgeted by samples (``playouts``, exact and deterministic for a seed:
tests, benches) or by time (``seconds``, the bot: ``COMPUTER_THINK_SECONDS``,
run in a worker process by :mod:`bot.thinker`).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.errors import RummyError
from ..engine.game import Game, Move
from ..engine.rng import Rng

ChooseMove = Callable[[Any, int, random.Random], Move]
Cost = Callable[[Any, int], float]
"""How bad ``seat``'s hand is in a game (lower is better): a variant's own measure."""
Candidates = Callable[[Any, int, Move], list[Move]]
"""The moves worth comparing with the standard ``base`` move, ``base`` first."""

BLUNDER = 0.35
"""Share of the easy player's moves that are not the standard choice (when there is one)."""
OVERLOOK = 0.25
"""Share of the easy player's melds and lay-offs it overlooks, ending its turn instead."""
SHOWY_KINDS = frozenset({"meld", "layoff", "take", "swap", "play"})
"""Optional plays a beginner may overlook (when ending the turn is legal)."""
LOOSE_KINDS = frozenset({"draw", "discard", "meld", "layoff", "take", "swap"})
"""Kinds whose other legal moves are all sensible: the easy player may pick another one."""
TURN_ENDS = ("done",)

MAX_CANDIDATES = 6
"""Moves the strong player compares; the rest of a long list is left out."""
HORIZON_ROUNDS = 2
"""Rounds of turns each sample is played on before the position is scored."""
MAX_PLAYOUT_MOVES = 400
"""A sample's moves at most, whatever the horizon (a turn of many actions counts each)."""
CONFIDENCE = 2.0
"""Standard errors by which a move must beat the standard one to be played instead."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the strong player thinks: samples, or seconds (whichever ends first)."""

    playouts: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.playouts is None and self.seconds is None:
            raise ValueError("a budget needs playouts or seconds")


DEFAULT_BUDGET = Budget(playouts=400, seconds=1.0)


@dataclass(frozen=True, slots=True)
class Easy:
    """The standard player with blind spots (see the module docstring)."""

    standard: ChooseMove

    def __call__(self, game: Game[Any], seat: int, rng: random.Random) -> Move:
        move = self.standard(game, seat, rng)
        roll = rng.random()
        if move.kind in SHOWY_KINDS and roll < OVERLOOK:
            ends = [m for m in game.legal_moves(seat) if m.kind in TURN_ENDS]
            if ends:
                return ends[0]
        if move.kind in LOOSE_KINDS and roll < BLUNDER:
            others = [m for m in game.legal_moves(seat) if m.kind == move.kind and m != move]
            if others:
                return rng.choice(others)
        return move


@dataclass(frozen=True, slots=True)
class Strong:
    """Determinized Monte Carlo search over the standard player (see the module docstring).

    ``cost`` scores a position the horizon reaches (lower is better for a seat);
    without one, the pieces left in each hand are compared. A hand that ends
    within the horizon is scored by its result instead.
    """

    standard: ChooseMove
    cost: Cost | None = None
    rounds: int | None = HORIZON_ROUNDS
    """Rounds of turns a sample is played on; ``None``: to the end of the hand."""
    candidates: Candidates | None = None
    """The moves to compare (default :func:`candidate_moves`). A variant whose standard
    player follows a plan through a turn of many steps (Tile Rummy) offers only real
    choices here, so the search never leaves the plan half-way and starts it again."""

    searches = True
    """Marks a player slow enough to think in a worker process (:mod:`bot.thinker`)."""

    def __call__(self, game: Game[Any], seat: int, rng: random.Random,
                 budget: Budget = DEFAULT_BUDGET) -> Move:
        started = time.perf_counter()
        seed = rng.getrandbits(64)
        base = self.standard(game, seat, random.Random(seed))
        candidates = (self.candidates or candidate_moves)(game, seat, base)
        if len(candidates) == 1:
            return base
        values: list[list[float]] = [[] for _ in candidates]
        sample = 0
        playouts = 0
        while budget.playouts is None or sample < budget.playouts:
            world = game.redeal_unseen(seat, Rng(seed ^ (sample * 0x9E3779B97F4A7C15)))
            row = []
            for move in candidates:
                row.append(self.playout(world, seat, move, random.Random(seed + sample)))
                playouts += 1
                if budget.seconds is not None and sample:
                    # Stop before a playout that would end past the budget (a playout to
                    # the end of a hand can take a tenth of a second): the average one.
                    spent = time.perf_counter() - started
                    if spent + spent / playouts > budget.seconds:
                        break
            else:
                for column, value in zip(values, row, strict=True):
                    column.append(value)
                sample += 1
                continue
            break
        return candidates[pick(values)]

    def playout(self, world: Game[Any], seat: int, move: Move, rng: random.Random) -> float:
        """``move`` in the sampled ``world``, played on by the standard player, scored for
        ``seat`` in [0, 1]."""
        hands = len(world.history())
        try:
            game, _ = world.apply(move)
        except RummyError:  # cannot happen for a legal move of the seat's own: worst value
            return 0.0
        turns = self.rounds * game.players if self.rounds is not None else MAX_PLAYOUT_MOVES
        mover = game.to_move
        for _ in range(MAX_PLAYOUT_MOVES):
            if game.is_over or len(game.history()) > hands or turns <= 0:
                break
            current = game.to_move
            if current is None:
                break
            try:
                game, _ = game.apply(self.standard(game, current, rng))
            except RummyError:
                break
            if game.to_move != mover:
                turns -= 1
                mover = game.to_move
        if len(game.history()) > hands:
            return hand_value(game, seat, hands)
        return position_value(game, seat, self.cost)


def candidate_moves(game: Game[Any], seat: int, base: Move) -> list[Move]:
    """The standard move first, then other legal moves taken kind by kind in turn (so a
    long list of one kind does not crowd out the others), :data:`MAX_CANDIDATES` at most."""
    by_kind: dict[str, list[Move]] = {base.kind: []}
    for move in game.legal_moves(seat):
        if move != base:
            by_kind.setdefault(move.kind, []).append(move)
    chosen = [base]
    queues = list(by_kind.values())
    while len(chosen) < MAX_CANDIDATES and any(queues):
        for queue in queues:
            if queue and len(chosen) < MAX_CANDIDATES:
                chosen.append(queue.pop(0))
    return chosen


def pick(values: Sequence[Sequence[float]]) -> int:
    """The candidate to play: the best average, if it beats the standard move (index 0)
    by more than :data:`CONFIDENCE` standard errors of the paired differences."""
    if not values[0]:
        return 0
    means = [statistics.fmean(v) for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], i == 0))
    if best == 0:
        return 0
    diffs = [b - a for a, b in zip(values[0], values[best], strict=True)]
    if len(diffs) < 2:
        return 0
    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return best if statistics.fmean(diffs) > CONFIDENCE * error else 0


def hand_value(game: Game[Any], seat: int, before: int) -> float:
    """The first hand finished after ``before`` hands, for ``seat``: half for winning it (a
    share when tied), half for its points against the others'."""
    result = game.history()[before]
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    points = result.points
    sign = -1 if game.lower_is_better else 1
    others = [p for s, p in enumerate(points) if s != seat]
    margin = sign * (points[seat] - statistics.fmean(others)) if others else 0.0
    scale = 1 + statistics.fmean(abs(p) for p in points)
    return 0.5 * share + 0.25 * (1 + math.tanh(margin / scale))


def position_value(game: Game[Any], seat: int, cost: Cost | None) -> float:
    """A hand still in play, for ``seat``: its cost against the other seats' average."""
    if cost is not None:
        mine = cost(game, seat)
        others = [cost(game, s) for s in range(game.players) if s != seat]
        scale = 10.0
    else:
        mine = len(game.hand(seat))
        others = [len(game.hand(s)) for s in range(game.players) if s != seat]
        scale = 3.0
    if not others:
        return 0.5
    return 0.5 * (1 + math.tanh((statistics.fmean(others) - mine) / scale))


def levels(standard: ChooseMove, *, easy: ChooseMove | None = None, cost: Cost | None = None,
           rounds: int | None = HORIZON_ROUNDS, candidates: Candidates | None = None
           ) -> dict[str, ChooseMove]:
    """A variant's computer players by level, the default (standard) first.

    ``cost`` and ``rounds`` shape the strong player's search (:class:`Strong`): a
    variant whose standard player holds cards back on purpose (Penang, Rummi) is
    searched to the end of the hand (``rounds=None``), where counting cards left
    would reward dumping them.
    """
    return {"standard": standard, "easy": easy if easy is not None else Easy(standard),
            "strong": Strong(standard, cost, rounds, candidates)}
