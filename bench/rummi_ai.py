"""Bench: the Rummi computer player against the random legal player and against itself.

Usage (from the project root)::

    .venv/bin/python bench/rummi_ai.py [--games 1000] [--seed 0]

Four-player single-game matches with default options (20 cards each from 112,
one play per turn, Hu 10 chips, tiers 1-2-3). A game is won by the highest
chips (RMI-28); players tied for the highest share the win (each counts 1/k
of a win), so rates over all seats add up to 100%.

* computer vs random: one computer (in seat ``seed % 4``, so every seat
  takes its turn) against three random legal players; target ≥ 90%;
* computer vs computer: four copies; the rate of the seat ``seed % 4``;
  target about 25% ± 3.

Rates are printed with 95% Wilson intervals; the last line is a one-line
summary.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import wilson
from bot.ai.random_player import random_move
from bot.ai.rummi import choose_move
from bot.engine.game import Move
from bot.engine.variants.rummi import RummiGame, RummiOptions

Player = Callable[[RummiGame, int, random.Random], Move]
PLAYERS = 4


def play(players: list[Player], seed: int) -> tuple[tuple[int, ...], int]:
    """One game; returns (half-chips per seat, moves played)."""
    game = RummiGame.new(PLAYERS, RummiOptions(), seed=seed)
    rng = random.Random(seed * 7919 + 1)
    moves = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        game, _ = game.apply(players[seat](game, seat, rng))
        moves += 1
    return game.results[-1].points, moves


def share(points: tuple[int, ...], seat: int) -> float:
    """1/k if ``seat`` is one of k players tied for the highest chips, else 0."""
    best = max(points)
    return 1 / points.count(best) if points[seat] == best else 0.0


def match(label: str, players_for: Callable[[int], list[Player]], games: int,
          seed: int) -> tuple[float, float, float]:
    wins = 0.0
    lengths = []
    margins = []
    started = time.perf_counter()
    for i in range(games):
        s = seed + i
        seat = s % PLAYERS
        points, moves = play(players_for(s), s)
        wins += share(points, seat)
        lengths.append(moves)
        margins.append(points[seat] - max(p for k, p in enumerate(points) if k != seat))
    elapsed = time.perf_counter() - started
    rate = wins / games
    low, high = wilson(wins, games)
    print(f"{label}: {wins:.1f}/{games} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}); median "
          f"{statistics.median(lengths):.0f} moves per game, median margin to the best other "
          f"player {statistics.median(margins) / 2:+.1f} chips, {elapsed:.1f} s")
    return rate, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    def versus_random(s: int) -> list[Player]:
        return [choose_move if k == s % PLAYERS else random_move for k in range(PLAYERS)]

    rate, low, high = match("computer vs 3 random", versus_random, args.games, args.seed)
    self_rate, self_low, self_high = match(
        "computer vs 3 computers", lambda s: [choose_move] * PLAYERS, args.games, args.seed)
    strong = "PASS" if rate >= 0.90 else "FAIL"
    fair = "PASS" if abs(self_rate - 0.25) <= 0.03 else "FAIL"
    print(f"SUMMARY rummi_ai: vs random {rate:.1%} [{low:.1%}, {high:.1%}] ({strong}, target "
          f"≥ 90%); vs itself {self_rate:.1%} [{self_low:.1%}, {self_high:.1%}] ({fair}, target "
          f"25% ± 3) over {args.games} four-player games each")


if __name__ == "__main__":
    main()
