"""Bench: moves of the draw-and-discard games (Straight, Indian, Remi) through the engine.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/drawdiscard.py [--games 40] [--seed 0] [--rounds 3]
    .venv/bin/python bench/drawdiscard.py --against /tmp/main-src   # before/after

Each variant plays ``--games`` matches from fixed seeds, every seat played by
its computer player (``bot.ai.<variant>.choose_move``) and one move in twenty
a timer expiry instead, capped at ``--max-moves`` moves a match. Timed, per
position: ``legal_moves`` for the seat to move, ``apply`` of the move chosen
(the computer's own thinking is not timed), the snapshot round trip
``from_json(to_json())``, and, where the tree has it, ``redeal_unseen`` for
the seat to move. Medians are printed in microseconds, with p99.

``--against DIR`` runs the same workload on another checkout of the tree (for
example ``git archive main | tar -x -C DIR``) in the same run: the two trees
alternate, one subprocess per tree and round, and the ratio of the medians
(this tree / the other, below 1 is faster) is printed with the agreement:
whether both trees played the very same moves (a digest of every move's JSON
per variant, fields left unset dropped), which holds when the engines behave the same.

The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OPS = ("legal", "apply", "json", "redeal")
CASES = (
    ("straight", 3, {}),
    ("indian", 3, {"format": "pool101"}),
    ("remi", 3, {}),
)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def worker(games: int, seed: int, max_moves: int) -> dict[str, Any]:
    """Play the workload with the ``bot`` package on ``sys.path``; raw samples in µs."""
    import importlib

    from bot.engine.errors import IllegalMove
    from bot.engine.game import Timeout
    from bot.engine.rng import Rng

    found: dict[str, Any] = {}
    for variant, players, options in CASES:
        engine = importlib.import_module(f"bot.engine.variants.{variant}")
        game_type = {"straight": "StraightGame", "indian": "IndianGame",
                     "remi": "RemiGame"}[variant]
        cls = getattr(engine, game_type)
        choose = importlib.import_module(f"bot.ai.{variant}").choose_move
        samples: dict[str, list[float]] = {op: [] for op in OPS}
        digest = hashlib.sha256()
        moves = 0
        for i in range(games):
            game = cls.new(players, cls.options_type.build(**options), seed=seed + i)
            rng = random.Random(seed + i)
            for _ in range(max_moves):
                if game.is_over:
                    break
                seat = game.to_move
                t0 = time.perf_counter()
                game.legal_moves(seat)
                t1 = time.perf_counter()
                move = Timeout(seat) if rng.random() < 0.05 else choose(game, seat, rng)
                t2 = time.perf_counter()
                try:
                    after, _ = game.apply(move)
                except IllegalMove:
                    continue
                t3 = time.perf_counter()
                type(game).from_json(game.to_json())
                t4 = time.perf_counter()
                try:
                    game.redeal_unseen(seat, Rng.from_seed(i))
                    t5 = time.perf_counter()
                    samples["redeal"].append((t5 - t4) * 1e6)
                except NotImplementedError:
                    pass
                samples["legal"].append((t1 - t0) * 1e6)
                samples["apply"].append((t3 - t2) * 1e6)
                samples["json"].append((t4 - t3) * 1e6)
                data = {k: v for k, v in move.to_json().items() if v is not None}
                digest.update(json.dumps(data, sort_keys=True).encode())  # optional fields unset
                moves += 1
                game = after
        found[variant] = {"samples": samples, "digest": digest.hexdigest()[:16],
                          "moves": moves}
    return found


def run_tree(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The workload in a fresh interpreter that imports ``bot`` from ``tree``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--tree", str(tree),
               "--games", str(args.games), "--seed", str(args.seed),
               "--max-moves", str(args.max_moves)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True,
                          check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="matches per variant and round")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per tree")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, str(args.tree))
        print(json.dumps(worker(args.games, args.seed, args.max_moves)))
        return
    with open("/proc/loadavg") as loadavg:
        print(f"load average {loadavg.read().split()[0]} (2 shared cores)")
    trees = {"this": ROOT}
    if args.against is not None:
        trees["other"] = args.against.resolve()
    pooled: dict[str, dict[str, dict[str, list[float]]]] = {
        name: {v: {op: [] for op in OPS} for v, _, _ in CASES} for name in trees}
    digests: dict[str, dict[str, set[str]]] = {name: {v: set() for v, _, _ in CASES}
                                               for name in trees}
    moves: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            for variant, result in run_tree(tree, args).items():
                for op in OPS:
                    pooled[name][variant][op].extend(result["samples"][op])
                digests[name][variant].add(result["digest"])
                moves[variant] = result["moves"]
    ratios = []
    agree = 0
    for variant, _, _ in CASES:
        print(f"{variant}: {moves[variant]} moves per round, {args.rounds} rounds")
        for op in OPS:
            mine = pooled["this"][variant][op]
            if not mine:
                continue
            line = (f"  {op:6} this tree median {statistics.median(mine):8.1f} µs, "
                    f"p99 {_percentile(mine, 99):9.1f} µs")
            other = pooled.get("other", {}).get(variant, {}).get(op)
            if other:
                ratio = statistics.median(mine) / statistics.median(other)
                if op in ("legal", "apply"):
                    ratios.append(ratio)
                line += (f" · other median {statistics.median(other):8.1f} µs, "
                         f"p99 {_percentile(other, 99):9.1f} µs · ratio {ratio:.2f}")
            print(line)
        if "other" in trees:
            same = digests["this"][variant] == digests["other"][variant]
            agree += same
            print(f"  same moves in both trees: {'yes' if same else 'NO'}")
    if "other" in trees:
        worst = max(ratios)
        print(f"SUMMARY: draw-and-discard moves, this tree / other: legal and apply median "
              f"ratios {min(ratios):.2f}–{worst:.2f} (≤ 1.05 is no slower: "
              f"{'met' if worst <= 1.05 else 'MISSED'}); same moves in {agree}/{len(CASES)} "
              "variants")
    else:
        medians = ", ".join(f"{v} apply {statistics.median(pooled['this'][v]['apply']):.0f} µs"
                            for v, _, _ in CASES)
        print(f"SUMMARY: draw-and-discard moves: {medians}")


if __name__ == "__main__":
    main()
