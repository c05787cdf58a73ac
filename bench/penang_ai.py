"""Bench: the Penang computer player against the random legal player and against itself.

Usage (from the project root)::

    .venv/bin/python bench/penang_ai.py [--games 1000] [--seed 0]

Four-player single-game matches with default options (20 cards, 6 jokers).
A game is won by the lowest points (PEN-25); players tied for the lowest
share the win (each counts 1/k of a win), so rates over all seats add up to
100%.

* computer vs random: one computer (in seat ``seed % 4``, so every seat
  takes its turn) against three random legal players; target ≥ 90%;
* computer vs computer: four copies; the rate of the seat ``seed % 4``;
  target about 25% ± 3.

Rates are printed with 95% Wilson intervals (bench/versus.py); the last line
is a one-line summary.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.versus import Bench
from bot.ai.penang import choose_move
from bot.engine.variants.penang import PenangGame, PenangOptions

BENCH = Bench("penang_ai", lambda seed: PenangGame.new(4, PenangOptions(), seed=seed),
              choose_move, lower_is_better=True)

if __name__ == "__main__":
    BENCH.main(__doc__.splitlines()[0])
