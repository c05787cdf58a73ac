"""Bench: the Straight Rummy computer player against the random legal player.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/straight_ai.py [--hands 1000] [--seed 0] [--self-play]
    .venv/bin/python -m bench.straight_ai --hands 200

The issue's criterion: "the computer player beats the random legal player in
at least 90% of 1,000 two-player hands". Hand ``i`` is a one-hand match
``StraightGame.new(2, StraightOptions(hands=1), seed + i)``; the computer
(``bot.ai.straight.choose_move``) sits in seat ``i % 2``, so it moves first
in half the hands, the random player (``bot.ai.random_player.random_move``)
in the other. Both draw their randomness from ``random.Random(seed + i)``.

A hand is a computer win when ``game.results[-1].winners == (computer_seat,)``.
A hand can end without a winner (a stock that cannot be reshuffled) or never
end (players left holding cards that fit nowhere while the stock reshuffles
for ever); a hand still running after ``--max-moves`` moves is stopped. Both
are counted as "no winner" and are **not** wins: the rate is wins / all hands,
with a 95% Wilson interval (the rate among decided hands is printed too).

``--self-play`` adds computer vs computer (seat 0's rate, ≈ 50% expected).
The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import load_average, verdict, wilson
from bot.ai.random_player import random_move
from bot.ai.straight import choose_move
from bot.engine.game import Move
from bot.engine.variants.straight import StraightGame, StraightOptions

Player = Callable[[StraightGame, int, random.Random], Move]
TARGET = 0.90


@dataclass
class Tally:
    """Outcomes of a series of hands, from one seat's point of view (the "hero")."""

    label: str
    wins: int = 0
    losses: int = 0
    no_winner: int = 0
    capped: int = 0
    moves: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def hands(self) -> int:
        return self.wins + self.losses + self.no_winner

    def report(self) -> tuple[float, float, float]:
        """Print the line for this series; returns (rate, low, high) over all hands."""
        rate = self.wins / self.hands if self.hands else 0.0
        low, high = wilson(self.wins, self.hands)
        decided = self.wins + self.losses
        print(f"{self.label}: {self.wins}/{self.hands} = {rate:.1%} (95% Wilson {low:.1%}–"
              f"{high:.1%}); {self.losses} lost, {self.no_winner} without a winner "
              f"({self.capped} stopped at the move cap); among decided hands "
              f"{self.wins / decided if decided else 0:.1%}")
        print(f"{'':4}{self.hands / self.seconds:.1f} hands/s, {self.moves / self.seconds:.0f} "
              f"moves/s, {self.moves / max(self.hands, 1):.0f} moves/hand "
              f"({self.seconds:.1f} s wall, {self.cpu_seconds:.1f} s CPU)")
        return rate, low, high


def play(players: tuple[Player, Player], seed: int, max_moves: int
         ) -> tuple[tuple[int, ...] | None, int]:
    """One two-player hand; (winners, or None if stopped at the cap; moves played)."""
    game = StraightGame.new(2, StraightOptions(hands=1), seed)
    rng = random.Random(seed)
    moves = 0
    while not game.is_over:
        if moves >= max_moves:
            return None, moves
        seat = game.to_move
        assert seat is not None
        game, _ = game.apply(players[seat](game, seat, rng))
        moves += 1
    return game.results[-1].winners, moves


def series(label: str, hero: Player, villain: Player, hands: int, seed: int,
           max_moves: int, alternate: bool = True) -> Tally:
    """``hands`` hands; the hero sits in seat ``i % 2`` (or always seat 0)."""
    tally = Tally(label)
    w0, c0 = time.perf_counter(), time.process_time()
    for i in range(hands):
        hero_seat = i % 2 if alternate else 0
        players = (hero, villain) if hero_seat == 0 else (villain, hero)
        winners, moves = play(players, seed + i, max_moves)
        tally.moves += moves
        if winners is None:
            tally.capped += 1
            tally.no_winner += 1
        elif not winners:
            tally.no_winner += 1
        elif winners == (hero_seat,):
            tally.wins += 1
        else:
            tally.losses += 1
    tally.seconds = time.perf_counter() - w0
    tally.cpu_seconds = time.process_time() - c0
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=2000,
                        help="a hand still running after this many moves has no winner")
    parser.add_argument("--self-play", action="store_true",
                        help="also play computer vs computer (seat 0's rate)")
    args = parser.parse_args()
    print(f"load average {load_average()}; {args.hands} two-player hands, seeds {args.seed}.."
          f"{args.seed + args.hands - 1}, computer in seat i % 2")
    series("warm-up", choose_move, random_move, 3, 10**6, args.max_moves)  # imports, caches
    tally = series("computer vs random", choose_move, random_move, args.hands, args.seed,
                   args.max_moves)
    rate, low, high = tally.report()
    ok = rate >= TARGET
    print(f"{'':4}target ≥ {TARGET:.0%} of hands won: {verdict(ok)} (the interval's lower bound "
          f"{'also clears' if low >= TARGET else 'does not clear'} {TARGET:.0%})")
    extra = ""
    if args.self_play:
        mirror = series("computer vs computer (seat 0)", choose_move, choose_move, args.hands,
                        args.seed, args.max_moves, alternate=False)
        self_rate, self_low, self_high = mirror.report()
        extra = f" · self-play seat 0 {self_rate:.1%} [{self_low:.1%}, {self_high:.1%}]"
    print(f"SUMMARY: straight_ai computer beats random in {rate:.1%} of {tally.hands} hands "
          f"(95% CI {low:.1%}–{high:.1%}; target ≥ 90% {verdict(ok)}) · {tally.no_winner} "
          f"without a winner · {tally.hands / tally.seconds:.1f} hands/s{extra}")


if __name__ == "__main__":
    main()
