"""Bench: the Rummy 500 computer against the random legal player and against itself.

Usage (from the project root; both forms work)::

    .venv/bin/python bench/rummy500.py [--games 1000] [--seed 0] [--target 500] [--level standard]

Plays two-player games (default options: to 500 points, FHR-29) and prints the
computer's win rate with a 95% Wilson interval, against the random legal player
(seats alternate; target ≥ 90%) and against itself (seat 0's rate, target 50% ± 3).
A game won by both (``hands`` mode only) counts half. A game still running after
``MAX_MOVES`` moves is abandoned and not counted. It also prints the median and
p99 time the computer takes to choose a move. The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average, wilson
from bot.ai.random_player import random_move
from bot.ai.rummy500 import choose_easy, choose_move
from bot.engine.game import Move
from bot.engine.variants.rummy500 import Rummy500Game, Rummy500Options

Player = Callable[[Rummy500Game, int, random.Random], Move]
LEVELS: dict[str, Player] = {"standard": choose_move, "easy": choose_easy}
MAX_MOVES = 20000
CHOOSE_MS: list[float] = []
"""Time of every computer move of the run (milliseconds)."""


def timed(level: Player) -> Player:
    def move(game: Rummy500Game, seat: int, rng: random.Random) -> Move:
        start = time.perf_counter()
        chosen = level(game, seat, rng)
        CHOOSE_MS.append((time.perf_counter() - start) * 1000)
        return chosen
    return move


def play(players: tuple[Player, Player], seed: int, target: int
         ) -> tuple[tuple[int, ...] | None, int]:
    """One game; returns (winning seats or None if abandoned, hands played)."""
    game = Rummy500Game.new(2, Rummy500Options(target=target), seed=seed)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(MAX_MOVES):
        if game.is_over:
            return game.winners, game.hand_number
        seat = game.to_move
        assert seat is not None
        game, _ = game.apply(players[seat](game, seat, rng))
    return None, game.hand_number


def match(label: str, computer_seat: Callable[[int], int],
          players_for: Callable[[int], tuple[Player, Player]], games: int, seed: int,
          target: int) -> tuple[float, float, float]:
    wins = 0.0
    counted = abandoned = 0
    hands: list[float] = []
    started = time.perf_counter()
    for i in range(games):
        s = seed + i
        winners, played = play(players_for(s), s, target)
        hands.append(played)
        if winners is None:
            abandoned += 1
            continue
        counted += 1
        if computer_seat(s) in winners:
            wins += 1 / len(winners)
    elapsed = time.perf_counter() - started
    rate = wins / counted if counted else 0.0
    low, high = wilson(wins, counted)
    print(f"{label}: {wins:g}/{counted} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}); "
          f"median {Spread.of(hands).median:.0f} hands per game, {abandoned} abandoned, "
          f"{elapsed:.0f} s", flush=True)
    return rate, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument("--level", choices=sorted(LEVELS), default="standard")
    args = parser.parse_args()
    print(f"load average {load_average()}")
    computer = timed(LEVELS[args.level])

    def versus_random(s: int) -> tuple[Player, Player]:
        return (computer, random_move) if s % 2 == 0 else (random_move, computer)

    rate, low, high = match(f"{args.level} vs random", lambda s: s % 2, versus_random,
                            args.games, args.seed, args.target)
    self_rate, self_low, self_high = match(
        f"{args.level} vs {args.level} (seat 0)", lambda s: 0, lambda s: (computer, computer),
        args.games, args.seed, args.target)
    choose = Spread.of(CHOOSE_MS)
    print(f"computer move: {choose.text(digits=2)}")
    ok = rate >= 0.90
    even = 0.47 <= self_rate <= 0.53
    print(f"SUMMARY: rummy500 {args.level} vs random {rate:.1%} [{low:.1%}, {high:.1%}] "
          f"({'PASS' if ok else 'FAIL'}, target ≥ 90%); vs itself {self_rate:.1%} "
          f"[{self_low:.1%}, {self_high:.1%}] ({'PASS' if even else 'FAIL'}, target 50% ± 3); "
          f"move median {choose.median:.2f} ms over {args.games} games each")


if __name__ == "__main__":
    main()
