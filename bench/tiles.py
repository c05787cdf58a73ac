"""Bench: the Tile Rummy table search (best play and ``arrange``) beside ``rummikub-solver``.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/tiles.py [--positions 200] [--seed 0]
    .venv/bin/python -m bench.tiles --positions 50

Positions: a table of 40–80 tiles in valid random melds and a 14-tile rack
with 0–2 jokers (``tests.tiles_helpers.random_position``), every player past
the initial meld, default joker rules (no table jokers, so the joker modes do
not change the answer and both solvers solve the same problem).

* best play: ours (``tilesolver.best_play``: most tiles, then most value) and
  rummikub-solver's ``SolverMode.TILE_COUNT`` (most tiles; it has no value
  tie-break), so agreement is on the number of tiles placed. Where they
  differ, both answers are checked (valid melds, tiles conserved) and the
  integer program of ``tests/test_tilesolver.py`` says which count is right.
* arrange on named tiles (TIL-20: the table changing the fewest melds), twice per
  position: 1–3 random rack tiles, and the whole best play (every rack tile our best
  play placed, up to 14). Each with the engine's 10-second limit (a stop counts as a
  miss). rummikub-solver has no such search, so it is timed on placing exactly the
  1–3 tiles (``solve`` with them as the rack: can all be placed), and agreement is on
  "possible". ``--search`` times ``arrange`` as it was before issue 19 (the search
  over sets of melds alone, no programme deciding which melds change), on the same
  positions, for the before/after figures.

The programme at the heart of both runs in C (``bot/engine/_tilecore.c``) when it was
built; the first lines say which core is in use. The pure-Python core is timed on the
same positions too (``--no-python`` skips it), and both must give identical results.

Targets (issue 12): the same optimum everywhere, our median ≥ 10× faster
than rummikub-solver, our p99 ≤ 50 ms; (issue 19) arrange on named tiles p99 ≤ 50 ms and
max ≤ 500 ms, both for 1–3 tiles and for the whole best play. The last line starts with
``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from collections import Counter

from bench.common import Spread, load_average, verdict
from bot.engine import tilesolver
from bot.engine.cards import Tile
from bot.engine.tilesolver import SearchStopped, SolveRules, StagedMeld, arrange, best_play
from tests.tiles_helpers import random_position


def _theirs():
    try:
        from rummikub_solver import RuleSet, SolverMode
    except ImportError:
        return None
    ruleset = RuleSet()
    return ruleset, SolverMode


def _state(ruleset, table: list[Tile], rack: list[Tile]):
    tiles = ruleset.tiles

    def index(tile: Tile) -> int:
        return 52 if tile.is_joker else tile.suit * 13 + tile.rank - 1

    state = ruleset.new_game()
    state.initial = False
    if table:
        state.add_table(*(tiles[index(t)] for t in table))
    if rack:
        state.add_rack(*(tiles[index(t)] for t in rack))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-python", action="store_true",
                        help="do not also time the pure-Python core")
    parser.add_argument("--search", action="store_true",
                        help="arrange by the search over sets of melds alone (as before "
                             "issue 19), for the before figures")
    args = parser.parse_args()
    if args.search:
        tilesolver._fewest_changes = lambda *_: tilesolver._SEARCH  # type: ignore[assignment]
        print("arrange: the search over sets of melds alone (--search)")
    print(f"load average {load_average()}")
    print(f"solver core: {tilesolver.CORE}"
          + ("" if tilesolver.CORE == "C" else " (the C extension is not built: pip install -e .)"))
    compare_python = tilesolver.CORE == "C" and not args.no_python
    theirs = _theirs()
    if theirs is None:
        print("rummikub-solver is not installed (pip install -e '.[bench]'): ours only")
    rules = SolveRules()
    ours_best, ours_arrange, their_best, their_arrange = [], [], [], []
    ours_whole: list[float] = []
    cpu_arrange: list[float] = []
    cpu_whole: list[float] = []
    agree_best = agree_arrange = compared = stopped = stopped_whole = 0
    python_best, python_arrange = [], []
    identical = 0
    differences = []
    for i in range(args.positions):
        seed = args.seed + i
        rng = random.Random(seed)
        table, rack = random_position(seed, rng.randint(40, 80), 14)
        table_tiles = [t for m in table for t, _ in m]
        started = time.perf_counter()
        found = best_play(table, rack, True, rules)
        ours_best.append((time.perf_counter() - started) * 1000)
        placed = list((Counter(t for m in found.melds for t, _ in m)
                       - Counter(table_tiles)).elements())
        named = rng.sample(rack, rng.randint(1, 3))
        staged = [StagedMeld(tuple(m), ("table",) * len(m), True) for m in table]
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            arranged = arrange(staged, named, [], True, rules, started + 10)
        except SearchStopped:
            arranged = None
            stopped += 1
        ours_arrange.append((time.perf_counter() - started) * 1000)
        cpu_arrange.append((time.thread_time() - cpu) * 1000)
        if placed:
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                whole = arrange(staged, placed, [], True, rules, started + 10)
            except SearchStopped:
                whole = None
                stopped_whole += 1
            ours_whole.append((time.perf_counter() - started) * 1000)
            cpu_whole.append((time.thread_time() - cpu) * 1000)
            if whole is None:
                differences.append(f"seed {seed}: arrange found no table for the best play")
        if compare_python:
            with tilesolver.pure_python_core():
                started = time.perf_counter()
                slow = best_play(table, rack, True, rules)
                python_best.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                try:
                    slow_arranged = arrange(staged, named, [], True, rules, started + 10)
                except SearchStopped:
                    slow_arranged = None
                python_arrange.append((time.perf_counter() - started) * 1000)
            if slow == found and slow_arranged == arranged:
                identical += 1
            else:
                differences.append(f"seed {seed}: the C and Python cores differ")
        if theirs is None:
            continue
        ruleset, mode = theirs
        with contextlib.redirect_stdout(io.StringIO()):
            state = _state(ruleset, table_tiles, rack)
            started = time.perf_counter()
            solution = ruleset.solve(state, mode.TILE_COUNT)
            their_best.append((time.perf_counter() - started) * 1000)
            state = _state(ruleset, table_tiles, named)
            started = time.perf_counter()
            possible = ruleset.solve(state, mode.TILE_COUNT)
            their_arrange.append((time.perf_counter() - started) * 1000)
        compared += 1
        their_count = len(solution.tiles) if solution else 0
        if their_count == found.placed:
            agree_best += 1
        else:
            differences.append(f"seed {seed}: ours places {found.placed}, theirs {their_count}")
        their_possible = possible is not None and len(possible.tiles) == len(named)
        if their_possible == (arranged is not None):
            agree_arrange += 1
        else:
            differences.append(f"seed {seed}: arrange {' '.join(t.code for t in named)}: ours "
                               f"{'found' if arranged else 'none'}, theirs "
                               f"{'found' if their_possible else 'none'}")
    ob, oa, ow = Spread.of(ours_best), Spread.of(ours_arrange), Spread.of(ours_whole)
    print(f"ours best play: {ob.text()}")
    print(f"ours arrange, 1–3 random rack tiles: {oa.text()}")
    print(f"ours arrange, the whole best play:   {ow.text()}")
    ca, cw = Spread.of(cpu_arrange), Spread.of(cpu_whole)
    print(f"  the same in CPU time (this thread; other processes' load left out): 1–3 tiles "
          f"{ca.text()}; whole play {cw.text()}")
    print(f"arrange searches stopped at 10 s: {stopped} (1–3 tiles), {stopped_whole} "
          "(whole play)")
    arrange_ok = max(oa.p99, ow.p99) <= 50 and max(oa.max, ow.max) <= 500
    arrange_line = (f"arrange p99 {oa.p99:.1f} ms / max {oa.max:.1f} ms (1–3 tiles), "
                    f"p99 {ow.p99:.1f} ms / max {ow.max:.1f} ms (whole play) (target p99 ≤ "
                    f"50 ms, max ≤ 500 ms: {verdict(arrange_ok)}; in CPU time p99 "
                    f"{ca.p99:.1f} / {cw.p99:.1f} ms, max {ca.max:.1f} / {cw.max:.1f} ms)")
    if compare_python:
        pb, pa = Spread.of(python_best), Spread.of(python_arrange)
        print(f"pure-Python core best play: {pb.text()}")
        print(f"pure-Python core arrange:   {pa.text()}")
        print(f"C core vs pure-Python core (median): best play {pb.median / ob.median:.1f}×, "
              f"arrange {pa.median / oa.median:.1f}×; identical results (melds and counts) "
              f"in {identical}/{args.positions}")
    if theirs is not None:
        tb, ta = Spread.of(their_best), Spread.of(their_arrange)
        print(f"rummikub-solver solve (TILE_COUNT): {tb.text()}")
        print(f"rummikub-solver solve (the named tiles): {ta.text()}")
        print(f"best play: same number of tiles placed in {agree_best}/{compared}")
        print(f"arrange: same answer (possible or not) in {agree_arrange}/{compared}")
        for line in differences[:20]:
            print("  difference:", line)
        ratio = tb.median / ob.median
        ratio_a = ta.median / oa.median
        print(f"median ratio theirs/ours: best play {ratio:.2f}×, arrange {ratio_a:.2f}×")
        print(f"SUMMARY: agreement {agree_best}/{compared} best play, {agree_arrange}/{compared}"
              f" arrange ({verdict(agree_best == compared)}); ours median {ob.median:.1f} ms vs "
              f"{tb.median:.1f} ms = {ratio:.2f}× (target ≥ 10×: {verdict(ratio >= 10)}); "
              f"best play p99 {ob.p99:.1f} ms (target ≤ 50 ms: {verdict(ob.p99 <= 50)}); "
              + arrange_line)
    else:
        for line in differences[:20]:
            print("  difference:", line)
        print(f"SUMMARY: ours median {ob.median:.1f} ms, p99 {ob.p99:.1f} ms best play (target "
              f"≤ 50 ms: {verdict(ob.p99 <= 50)}); " + arrange_line
              + "; rummikub-solver not installed")


if __name__ == "__main__":
    main()
