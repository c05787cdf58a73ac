"""Bench: Penang Rummy's turn-start Dead check, and computer players' whole turns.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/penang.py [--positions 1000] [--games 100] [--seed 0]
    .venv/bin/python -m bench.penang --positions 300 --games 30

Dead check (PEN-17, ``bot.engine.variants.penang.has_action``: is there a
legal new meld, lay-off, or a substitution path to one?) on positions of a
three-player game with 8 jokers: a 25-card hand with a passport, against a
table of 20 melds built from the rest of the deck (random 3-card runs and
sets, jokers included, some grown by a lay-off or two). Three cases:

* ``25c as played``: the check as the engine runs it (it stops at the first
  action found, usually a meld in hand);
* ``25c every part``: all three parts evaluated on the same positions with no
  early exit (3-card melds, single lay-offs over 20 melds, every swap path):
  an upper bound for a 25-card hand;
* ``late game``: 2–8 cards left and no meld in hand, so lay-offs and swap
  paths decide (hands dealt until one has no meld).

Targets: median ≤ 1 ms, p99 ≤ 10 ms (wall, quietest of ``--rounds`` rounds).

Computer turns: whole matches (one game) with ``bot.ai.penang.choose_move``
in every seat, 4 players (20 cards, 6 jokers) and 3 players (25 cards, 8
jokers); a turn's time is the sum of choose_move + apply over its moves.
Target: median ≤ 20 ms.

The last line starts with ``SUMMARY:``.
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

from bench.common import Spread, load_average, verdict
from bot.ai.penang import choose_move
from bot.engine.cards import Card, Piece, card_deck
from bot.engine.melds import extend_meld, read_meld
from bot.engine.shedding import LayoffTargets, any_new_meld, new_meld_candidates, single_layoffs
from bot.engine.table import TableMeld
from bot.engine.variants.penang import (
    PenangGame,
    PenangOptions,
    has_action,
    penang_rules,
    swap_path,
)

RULES = penang_rules()
CHECK_TARGET_MS = (1.0, 10.0)
TURN_TARGET_MS = 20.0
Position = tuple[list[Piece], list[TableMeld]]


def build_table(pool: list[Card], melds: int, rng: random.Random) -> list[TableMeld] | None:
    """``melds`` random valid melds taken from ``pool`` (removed from it), some grown.

    Mostly natural melds, one in five with a joker (so swaps exist); ``None``
    if the pool runs out of melds first.
    """
    table: list[TableMeld] = []
    while len(table) < melds:
        candidates = new_meld_candidates(pool, RULES)
        natural = [c for c in candidates if not any(p.is_joker for p in c)]
        one_joker = [c for c in candidates if sum(p.is_joker for p in c) == 1]
        choices = one_joker if one_joker and (rng.random() < 0.2 or not natural) else natural
        if not choices:
            return None
        pieces = list(rng.choice(choices))
        for piece in pieces:
            pool.remove(piece)  # type: ignore[arg-type]
        meld = read_meld(pieces, RULES)
        number = len(table) + 1
        for _ in range(rng.choice((0, 0, 1, 2))):
            fits = single_layoffs(pool, [TableMeld(number, 0, meld)], RULES)
            if not fits:
                break
            piece, _ = rng.choice(fits)
            meld = extend_meld(meld, [piece], RULES, number)
            pool.remove(piece)  # type: ignore[arg-type]
        table.append(TableMeld(number, 0, meld))
    return table


def full_position(rng: random.Random) -> Position:
    while True:
        deck = card_deck(2, 8)
        rng.shuffle(deck)
        hand, pool = deck[:25], deck[25:]
        table = build_table(pool, 20, rng)
        if table is not None:
            return list(hand), table


def late_position(rng: random.Random) -> Position:
    """A short hand with no meld in it, against 20 melds (lay-offs and swaps decide)."""
    while True:
        deck = card_deck(2, 8)
        rng.shuffle(deck)
        table = build_table(deck[30:], 20, rng)
        hand = deck[:rng.randint(2, 8)]
        if table is not None and not any_new_meld(hand, RULES):
            return list(hand), table


def every_part(hand: list[Piece], table: list[TableMeld]) -> bool:
    """The three parts of the check, all evaluated (no early exit)."""
    meld = any_new_meld(hand, RULES)
    layoff = LayoffTargets.of(table, RULES).any_fits(hand)
    swap = swap_path(hand, table, RULES)
    return meld or layoff or swap


def time_check(positions: list[Position], check: Callable[[list[Piece], list[TableMeld]], bool]
               ) -> tuple[Spread, int]:
    times = []
    alive = 0
    for hand, table in positions:
        started = time.perf_counter()
        alive += check(hand, table)
        times.append((time.perf_counter() - started) * 1000)
    return Spread.of(times), alive


def bench_check(name: str, make: Callable[[random.Random], Position],
                check: Callable[[list[Piece], list[TableMeld]], bool],
                args: argparse.Namespace) -> Spread:
    rng = random.Random(f"{args.seed}:{name}")
    positions = [make(rng) for _ in range(args.positions)]
    rounds = [time_check(positions, check) for _ in range(args.rounds)]
    best, alive = min(rounds, key=lambda r: r[0].median)
    ok = best.median <= CHECK_TARGET_MS[0] and best.p99 <= CHECK_TARGET_MS[1]
    print(f"{name:18} {best.text(digits=3)}; {alive}/{len(positions)} alive; "
          f"medians " + ", ".join(f"{r[0].median:.3f}" for r in rounds)
          + f" · target median ≤ {CHECK_TARGET_MS[0]:g} ms, p99 ≤ {CHECK_TARGET_MS[1]:g} ms: "
          f"{verdict(ok)}")
    return best


def play_turns(players: int, jokers: int, games: int, seed: int) -> tuple[Spread, Spread]:
    """Per-turn and per-move milliseconds of computers playing whole games."""
    turns: list[float] = []
    moves: list[float] = []
    for i in range(games):
        game = PenangGame.new(players, PenangOptions(jokers=jokers), seed=seed + i)
        rng = random.Random(seed + i)
        spent = 0.0
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            serial = game.turn_serial
            started = time.perf_counter()
            game, _ = game.apply(choose_move(game, seat, rng))
            took = (time.perf_counter() - started) * 1000
            moves.append(took)
            spent += took
            if game.is_over or game.turn_serial != serial:
                turns.append(spent)
                spent = 0.0
    return Spread.of(turns), Spread.of(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="positions per check case")
    parser.add_argument("--rounds", type=int, default=3,
                        help="timed rounds over the positions; the quietest is reported")
    parser.add_argument("--games", type=int, default=100, help="computer games per table size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load average {load_average()} at start; Dead check times in ms per call")

    def as_played(hand: list[Piece], table: list[TableMeld]) -> bool:
        return has_action(hand, table, RULES, True)

    played = bench_check("25c as played", full_position, as_played, args)
    parts = bench_check("25c every part", full_position, every_part, args)
    late = bench_check("late game", late_position, as_played, args)
    turn_runs = {}
    for players, jokers in ((4, 6), (3, 8)):
        turns, per_move = play_turns(players, jokers, args.games, args.seed)
        turn_runs[players] = turns
        ok = turns.median <= TURN_TARGET_MS
        print(f"computer turns {players}p ({jokers} jokers): {turns.text()} · per move "
              f"{per_move.text()} · target median ≤ {TURN_TARGET_MS:g} ms: {verdict(ok)}")
    print(f"load average {load_average()} at end")
    worst = max((played, parts, late), key=lambda s: s.p99)
    check_ok = all(s.median <= CHECK_TARGET_MS[0] and s.p99 <= CHECK_TARGET_MS[1]
                   for s in (played, parts, late))
    turn_ok = all(t.median <= TURN_TARGET_MS for t in turn_runs.values())
    print(f"SUMMARY: penang dead check median {played.median:.3f} ms (every part "
          f"{parts.median:.3f}, late game {late.median:.3f}), worst p99 {worst.p99:.3f} ms "
          f"({'target ok' if check_ok else 'TARGET MISSED'}) · computer turn median "
          f"4p {turn_runs[4].median:.1f} ms, 3p {turn_runs[3].median:.1f} ms "
          f"({'target ok' if turn_ok else 'TARGET MISSED'})")


if __name__ == "__main__":
    main()
