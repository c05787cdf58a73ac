"""Bench: Remi scoring, the exact best arrangement of 8-card hands (REM-24).

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/remi.py [--hands 2000] [--warmup 2000] [--seed 0]
    .venv/bin/python -m bench.remi --hands 500

Each hand is 8 cards of one pack (a hand after drawing) scored by
``bot.engine.variants.remi.best_score``, the function every deal end, every
timeout (REM-30) and the computer player call. Two shapes:

* *with table sequences*: the seat also owns one or two sequences on the
  table (3 to 5 cards of a suit, disjoint from the hand), so sets are backed
  and the search runs with no minimum;
* *no table sequence*: the search runs with ``min_runs=1`` and the score is
  compared with the unbacked one (the way REM-24's backing is handled).

The shared search keeps process-wide caches, so each shape is measured
*cold* (caches emptied, the first ``--cold`` hands) and *warm* (after
``--warmup`` more hands: the steady state of a long-running bot). Wall
(``perf_counter``) and CPU (``process_time``) milliseconds per hand; the
target (median ≤ 0.2 ms) is judged on the warm wall median with table
sequences. The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average, verdict
from bot.engine import arrange
from bot.engine.cards import Card, card_deck
from bot.engine.melds import Meld, read_meld
from bot.engine.variants.remi import RULES, best_score

TARGET_MEDIAN_MS = 0.2
HAND = 8


def table_sequences(rng: random.Random, count: int) -> tuple[list[Meld], set[Card]]:
    """``count`` disjoint random Remi sequences (2–10 runs of 3–5 cards, or J Q K)."""
    melds: list[Meld] = []
    used: set[Card] = set()
    while len(melds) < count:
        suit = rng.randrange(4)
        if rng.random() < 0.2:
            ranks = [11, 12, 13]
        else:
            length = rng.randint(3, 5)
            start = rng.randint(2, 11 - length)
            ranks = list(range(start, start + length))
        cards = [Card(r, suit) for r in ranks]
        if used.isdisjoint(cards):
            melds.append(read_meld(cards, RULES))
            used.update(cards)
    return melds, used


def deal(rng: random.Random, with_table: bool) -> tuple[list[Card], list[Meld]]:
    melds, used = table_sequences(rng, rng.randint(1, 2)) if with_table else ([], set())
    deck = [c for c in card_deck(1) if c not in used]
    return rng.sample(deck, HAND), melds


def time_hands(rng: random.Random, hands: int, with_table: bool) -> tuple[Spread, Spread]:
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(hands):
        hand, table = deal(rng, with_table)
        w0, c0 = time.perf_counter(), time.process_time()
        best_score(hand, table)
        c1, w1 = time.process_time(), time.perf_counter()
        wall.append((w1 - w0) * 1000)
        cpu.append((c1 - c0) * 1000)
    return Spread.of(wall), Spread.of(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=2000)
    parser.add_argument("--cold", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load average {load_average()} · {args.hands} warm hands per shape, {args.cold} cold")
    results = {}
    for with_table in (True, False):
        name = "8c with table sequences" if with_table else "8c no table sequence"
        rng = random.Random(args.seed)
        arrange._caches.clear()
        cold_wall, _ = time_hands(rng, args.cold, with_table)
        time_hands(rng, args.warmup, with_table)
        wall, cpu = time_hands(rng, args.hands, with_table)
        results[with_table] = wall
        print(f"{name}: cold wall {cold_wall.text(digits=3)}")
        print(f"{name}: warm wall {wall.text(digits=3)}")
        print(f"{name}: warm cpu  {cpu.text(digits=3)}")
    main_case = results[True]
    ok = main_case.median <= TARGET_MEDIAN_MS
    print(f"SUMMARY: remi scoring 8c with table sequences median {main_case.median:.3f} ms "
          f"p99 {main_case.p99:.3f} ms (target median ≤ {TARGET_MEDIAN_MS} ms: {verdict(ok)}); "
          f"no table sequence median {results[False].median:.3f} ms p99 "
          f"{results[False].p99:.3f} ms")


if __name__ == "__main__":
    main()
