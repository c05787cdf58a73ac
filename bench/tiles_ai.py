"""Bench: Tile Rummy computer players, strong vs easy and easy vs the random legal player.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/tiles_ai.py [--games 500] [--random-games 500] [--seed 0]
    .venv/bin/python -m bench.tiles_ai --games 100

The issue's criteria: the strong computer beats the easy one in ≥ 80% of 500
two-player games, and the easy one beats a random legal player in ≥ 90%.

Game ``i`` is ``TilesGame.new(2, TilesOptions(turn_seconds=0), seed + i)``
(default rules: initial meld 30, jokers released from the rack); the hero sits
in seat ``i % 2``. A game is a hero win when the hero is the only winner
(an empty rack, or the lowest rack of a blocked game); a shared win, a loss,
or a game stopped after ``--max-moves`` moves is not. The rate is wins / all
games with a 95% Wilson interval. The last line starts with ``SUMMARY:``.
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
from bot.ai.tiles import choose_easy, choose_strong
from bot.engine.game import Move
from bot.engine.variants.tiles import TilesGame, TilesOptions

Player = Callable[[TilesGame, int, random.Random], Move]


@dataclass
class Tally:
    label: str
    target: float
    wins: int = 0
    games: int = 0
    capped: int = 0
    moves: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        return (f"{self.label}: {self.wins}/{self.games} = {rate:.1%} "
                f"(95% Wilson {low:.1%}–{high:.1%}), target ≥ {self.target:.0%}: "
                f"{verdict(low >= self.target or rate >= self.target)}; "
                f"{self.capped} stopped, {self.moves / max(1, self.games):.0f} moves/game, "
                f"{self.seconds / max(1, self.games):.2f} s/game")


def play(hero: Player, villain: Player, games: int, seed: int, max_moves: int,
         tally: Tally) -> Tally:
    for i in range(games):
        hero_seat = i % 2
        rng = random.Random(seed + i)
        game = TilesGame.new(2, TilesOptions(turn_seconds=0), seed + i)
        started = time.perf_counter()
        moves = 0
        while not game.is_over and moves < max_moves:
            seat = game.to_move
            assert seat is not None
            player = hero if seat == hero_seat else villain
            game, _ = game.apply(player(game, seat, rng))
            moves += 1
        tally.seconds += time.perf_counter() - started
        tally.games += 1
        tally.moves += moves
        if not game.is_over:
            tally.capped += 1
        elif game.winners == (hero_seat,):
            tally.wins += 1
        if (i + 1) % 50 == 0:
            print(f"  … {tally.line()}", flush=True)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500, help="strong vs easy games")
    parser.add_argument("--random-games", type=int, default=500, help="easy vs random games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=20000)
    args = parser.parse_args()
    print(f"load average {load_average()}")
    strong = play(choose_strong, choose_easy, args.games, args.seed, args.max_moves,
                  Tally("strong vs easy", 0.80))
    print(strong.line(), flush=True)
    easy = play(choose_easy, random_move, args.random_games, args.seed + 100_000,
                args.max_moves, Tally("easy vs random", 0.90))
    print(easy.line(), flush=True)
    s_rate = strong.wins / max(1, strong.games)
    e_rate = easy.wins / max(1, easy.games)
    print(f"SUMMARY: strong beats easy {s_rate:.1%} of {strong.games} "
          f"({verdict(s_rate >= 0.80)}), easy beats random {e_rate:.1%} of {easy.games} "
          f"({verdict(e_rate >= 0.90)})")


if __name__ == "__main__":
    main()
