"""Bench: the Remi computer player against the random legal player and against itself.

Usage (from the project root; both forms work)::

    .venv/bin/python bench/remi_ai.py [--matches 1000] [--seed 0] [--target 500]

Plays two-player matches (default options: to 500 points, REM-27) and prints
the computer's match win rate with a 95% Wilson interval, against the random
legal player (seats alternate; target ≥ 90%) and against itself (seat 0's
rate, ≈ 50%). A match tied for the highest total counts half a win (REM-28).
A match still running after ``MAX_MOVES`` moves is abandoned and not counted
(bench/headsup.py).
It also prints the median and p99 time the computer takes to choose a move.
The last line starts with ``SUMMARY:``.
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
from bench.headsup import HeadsUp
from bot.ai.remi import choose_move
from bot.engine.variants.remi import RemiGame, RemiOptions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=500)
    args = parser.parse_args()
    print(f"load average {load_average()}")
    bench = HeadsUp(lambda seed: RemiGame.new(2, RemiOptions(target=args.target), seed=seed),
                    choose_move, rounds="deals")
    rate, low, high = bench.versus_random("computer vs random", args.matches, args.seed)
    self_rate, self_low, self_high = bench.versus_itself("computer vs computer (seat 0)",
                                                         args.matches, args.seed)
    choose = Spread.of(bench.choose_ms)
    print(f"computer move: {choose.text(digits=2)}")
    ok = rate >= 0.90
    even = self_low <= 0.5 <= self_high
    print(f"SUMMARY: remi_ai vs random {rate:.1%} [{low:.1%}, {high:.1%}] "
          f"({'PASS' if ok else 'FAIL'}, target ≥ 90%); vs itself {self_rate:.1%} "
          f"[{self_low:.1%}, {self_high:.1%}] ({'≈ 50%' if even else 'NOT ≈ 50%'}); "
          f"move median {choose.median:.2f} ms over {args.matches} matches each")


if __name__ == "__main__":
    main()
