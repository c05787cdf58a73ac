"""The computer-player bench shared by bench/penang_ai.py and bench/rummi_ai.py.

Four-player single-game matches: one computer (in seat ``seed % 4``, so every
seat takes its turn) against three random legal players, then four copies of
the computer, rating the seat ``seed % 4``. Players tied for the best result
share the win (each counts 1/k), so rates over all seats add up to 100%.
Rates are printed with 95% Wilson intervals; the last line is a one-line
SUMMARY.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bench.common import wilson
from bot.ai.random_player import random_move
from bot.engine.game import Game, Move

Player = Callable[[Any, int, random.Random], Move]
PLAYERS = 4


@dataclass(frozen=True)
class Bench:
    """What differs between variants: the game, the computer and how results read."""

    name: str
    new_game: Callable[[int], Game]
    """A fresh four-player game for a seed."""
    computer: Player
    lower_is_better: bool
    unit: str = "points"
    scale: float = 1.0
    """Result units per displayed unit (Rummi: 2 half-chips a chip)."""

    def play(self, players: Sequence[Player], seed: int) -> tuple[tuple[int, ...], int]:
        """One game; returns (result per seat, moves played)."""
        game = self.new_game(seed)
        rng = random.Random(seed * 7919 + 1)
        moves = 0
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            game, _ = game.apply(players[seat](game, seat, rng))
            moves += 1
        return game.history()[-1].points, moves

    def share(self, points: Sequence[int], seat: int) -> float:
        """1/k if ``seat`` is one of k players tied for the best result, else 0."""
        best = min(points) if self.lower_is_better else max(points)
        return 1 / list(points).count(best) if points[seat] == best else 0.0

    def match(self, label: str, players_for: Callable[[int], list[Player]], games: int,
              seed: int) -> tuple[float, float, float]:
        wins = 0.0
        lengths = []
        margins = []
        started = time.perf_counter()
        for i in range(games):
            s = seed + i
            seat = s % PLAYERS
            points, moves = self.play(players_for(s), s)
            wins += self.share(points, seat)
            lengths.append(moves)
            others = [p for k, p in enumerate(points) if k != seat]
            best_other = min(others) if self.lower_is_better else max(others)
            margins.append(points[seat] - best_other)
        elapsed = time.perf_counter() - started
        rate = wins / games
        low, high = wilson(wins, games)
        margin = statistics.median(margins) / self.scale
        digits = 0 if self.scale == 1 else 1
        print(f"{label}: {wins:.1f}/{games} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}); median "
              f"{statistics.median(lengths):.0f} moves per game, median margin to the best "
              f"other player {margin:+.{digits}f} {self.unit}, {elapsed:.1f} s")
        return rate, low, high

    def main(self, description: str) -> None:
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=0)
        args = parser.parse_args()
        computer = self.computer

        def versus_random(s: int) -> list[Player]:
            return [computer if k == s % PLAYERS else random_move for k in range(PLAYERS)]

        rate, low, high = self.match("computer vs 3 random", versus_random, args.games,
                                     args.seed)
        self_rate, self_low, self_high = self.match(
            "computer vs 3 computers", lambda s: [computer] * PLAYERS, args.games, args.seed)
        strong = "PASS" if rate >= 0.90 else "FAIL"
        fair = "PASS" if abs(self_rate - 0.25) <= 0.03 else "FAIL"
        print(f"SUMMARY {self.name}: vs random {rate:.1%} [{low:.1%}, {high:.1%}] ({strong}, "
              f"target ≥ 90%); vs itself {self_rate:.1%} [{self_low:.1%}, {self_high:.1%}] "
              f"({fair}, target 25% ± 3) over {args.games} four-player games each")
