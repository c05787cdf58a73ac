"""Bench: the Rummy 500 computer against the random legal player and against itself.

Usage (from the project root; both forms work)::

    .venv/bin/python bench/rummy500.py [--games 1000] [--seed 0] [--target 500] [--level standard]

Plays two-player games (default options: to 500 points, FHR-29) and prints the
computer's win rate with a 95% Wilson interval, against the random legal player
(seats alternate; target ≥ 90%) and against itself (seat 0's rate, target 50% ± 3).
A game won by both (``hands`` mode only) counts half; a game still running after
many moves is abandoned and not counted (bench/headsup.py). It also prints the median and
p99 time the computer takes to choose a move. The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average
from bench.headsup import HeadsUp, Player
from bot.ai.rummy500 import choose_easy, choose_move
from bot.engine.variants.rummy500 import Rummy500Game, Rummy500Options

LEVELS: dict[str, Player] = {"standard": choose_move, "easy": choose_easy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument("--level", choices=sorted(LEVELS), default="standard")
    args = parser.parse_args()
    print(f"load average {load_average()}")
    bench = HeadsUp(lambda seed: Rummy500Game.new(2, Rummy500Options(target=args.target),
                                                  seed=seed), LEVELS[args.level])
    rate, low, high = bench.versus_random(f"{args.level} vs random", args.games, args.seed)
    self_rate, self_low, self_high = bench.versus_itself(
        f"{args.level} vs {args.level} (seat 0)", args.games, args.seed)
    choose = Spread.of(bench.choose_ms)
    print(f"computer move: {choose.text(digits=2)}")
    ok = rate >= 0.90
    even = 0.47 <= self_rate <= 0.53
    print(f"SUMMARY: rummy500 {args.level} vs random {rate:.1%} [{low:.1%}, {high:.1%}] "
          f"({'PASS' if ok else 'FAIL'}, target ≥ 90%); vs itself {self_rate:.1%} "
          f"[{self_low:.1%}, {self_high:.1%}] ({'PASS' if even else 'FAIL'}, target 50% ± 3); "
          f"move median {choose.median:.2f} ms over {args.games} games each")


if __name__ == "__main__":
    main()
