"""Bench: replays of finished games, step by step (issue 24).

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/replay.py [--seeds 3] [--jumps 200] [--pictures 40]
    .venv/bin/python -m bench.replay --seeds 1

For every variant, with 2 and 4 players (as many as the variant seats), games
are played to the end by the variant's computer (Tile Rummy's easy level, the
quicker) from ``--seeds`` seeds, and each is replayed as the stepper does it:

* *build*: :class:`bot.engine.replay.Timeline` replays the whole game once and
  keeps a checkpoint every ``CHECKPOINT_EVERY`` moves (the first click on a game);
* *next*: every step in order, as ▶ clicked through the game (one move from the
  state kept before);
* *jump*: ``--jumps`` steps chosen at random (the jump menu, ⏭, ⏮), each from
  the nearest checkpoint. The peer is what a stepper without checkpoints would
  do: replay from the deal to the step on every click, on the same steps in the
  same run; the ratio of the medians and how many states agree are printed;
* *picture*: ``--pictures`` steps drawn with
  :func:`cardart.open_table.render_open_table` (open tables) or
  :func:`cardart.render_results` (ends), the open view built first;
* *memory*: what a built timeline keeps (``tracemalloc``), for the longest game,
  beside the bound of the bot's cache (``bot.replay.CACHE_SIZE`` games).

Times are wall clock (``perf_counter``) on whatever else the machine runs: the
load average is printed. The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average
from bot.engine.game import Game, Move
from bot.engine.record import GameRecord, RecordPlayer
from bot.engine.replay import CHECKPOINT_EVERY, Timeline, open_view
from bot.registry import VARIANTS
from bot.replay import CACHE_SIZE
from cardart import render_results
from cardart.open_table import render_open_table

NAMES = ("alice", "Ada (bot)", "Babbage (bot)", "bob")


def played(key: str, players: int, seed: int) -> GameRecord:
    kind = VARIANTS[key]
    level = "easy" if "easy" in kind.computers else None
    game: Game = kind.game.new(players, seed=seed)
    moves: list[Move] = []
    while not game.is_over:
        assert game.to_move is not None
        move = kind.choose_move(game, game.to_move, random.Random(f"{seed}:{len(moves)}"),
                                level)
        game = game.apply(move)[0]
        moves.append(move)
    return GameRecord(kind.game, key, game.options, seed,
                      tuple(RecordPlayer(n) for n in NAMES[:players]), tuple(moves))


def from_the_deal(record: GameRecord, moves: int) -> Game:
    """The peer: the state after ``moves`` moves, replayed from the deal."""
    game = record.new_game()
    for move in record.moves[:moves]:
        game = game.apply(move)[0]
    return game


def ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jumps", type=int, default=200)
    parser.add_argument("--pictures", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(0)
    print(f"load average {load_average()} · checkpoint every {CHECKPOINT_EVERY} moves")
    builds, nexts, jumps, peers, pictures = [], [], [], [], []
    agree = compared = 0
    longest: GameRecord | None = None
    for key in sorted(VARIANTS):
        for players in sorted({2, min(4, VARIANTS[key].game.max_players)}):
            kb, kn, kj, kp = [], [], [], []
            count = 0
            for seed in range(1, args.seeds + 1):
                record = played(key, players, seed)
                count += len(record.moves)
                if longest is None or len(record.moves) > len(longest.moves):
                    longest = record
                start = time.perf_counter()
                timeline = Timeline(record)
                kb.append(ms(start))
                for index in range(len(timeline)):
                    start = time.perf_counter()
                    timeline.frame(index)
                    kn.append(ms(start))
                for _ in range(args.jumps // args.seeds):
                    index = rng.randrange(len(timeline))
                    step = timeline.steps[index]
                    start = time.perf_counter()
                    frame = timeline.frame(index)
                    kj.append(ms(start))
                    start = time.perf_counter()
                    peer = from_the_deal(record, step.moves)
                    kp.append(ms(start))
                    compared += 1
                    agree += peer == frame.after
                for _ in range(args.pictures // args.seeds):
                    frame = timeline.frame(rng.randrange(len(timeline)))
                    names = list(NAMES[:players])
                    start = time.perf_counter()
                    if frame.step.kind == "end":
                        render_results(frame.after.result_view(), names)
                    else:
                        render_open_table(open_view(frame.after, frame.before), names)
                    pictures.append(ms(start))
            builds += kb
            nexts += kn
            jumps += kj
            peers += kp
            print(f"{key:8} {players}p {count / args.seeds:6.0f} moves/game · build "
                  f"{Spread.of(kb).median:6.1f} ms · next {Spread.of(kn).median:.3f} ms · jump "
                  f"{Spread.of(kj).median:.3f} ms vs from the deal {Spread.of(kp).median:.3f} ms")
    assert longest is not None
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = Timeline(longest)
    size = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    jump, peer, picture = Spread.of(jumps), Spread.of(peers), Spread.of(pictures)
    print(f"build: {Spread.of(builds).text()}")
    print(f"next:  {Spread.of(nexts).text(digits=3)}")
    print(f"jump:  {jump.text(digits=3)}")
    print(f"from the deal (peer): {peer.text(digits=3)}")
    print(f"picture: {picture.text()}")
    print(f"memory: a timeline of {len(kept.record.moves)} moves ({longest.variant}) keeps "
          f"{size / 1e6:.2f} MB; the cache holds at most {CACHE_SIZE} games "
          f"(≤ {CACHE_SIZE * size / 1e6:.0f} MB of such)")
    print(f"SUMMARY: replay next median {Spread.of(nexts).median:.3f} ms, jump median "
          f"{jump.median:.3f} ms p99 {jump.p99:.2f} ms vs from the deal median "
          f"{peer.median:.3f} ms p99 {peer.p99:.2f} ms (×{peer.median / jump.median:.1f}, "
          f"{agree}/{compared} states agree), picture median {picture.median:.0f} ms p99 "
          f"{picture.p99:.0f} ms, longest game {len(longest.moves)} moves, "
          f"{size / 1e6:.2f} MB kept · load {load_average()}")


if __name__ == "__main__":
    main()
