"""Bench: the Indian Rummy computer player against the random legal player and itself.

Usage (from the project root)::

    .venv/bin/python bench/indian_ai.py [--deals 1000] [--seed 0]

Plays two-player deals (``format`` = points, one deal per game, default
options) and prints the computer's win rate with a 95% Wilson interval,
against the random legal player (target ≥ 90%) and against itself (seat 0's
rate, ≈ 50%), then the median time of the best-grouping search on 14-card
hands (two packs, a wild rank and printed jokers). The last line is a
one-line summary.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import wilson
from bot.ai.indian import choose_move
from bot.ai.random_player import random_move
from bot.engine.cards import card_deck
from bot.engine.game import Move
from bot.engine.variants.indian import (
    IndianGame,
    IndianOptions,
    indian_rules,
    show_arrangement,
)

Player = Callable[[IndianGame, int, random.Random], Move]
MAX_MOVES = 4000
"""A deal longer than this is abandoned (counted as no result)."""


def play(players: tuple[Player, Player], seed: int) -> tuple[int | None, int]:
    """One deal; returns (winning seat or None, moves played)."""
    game = IndianGame.new(2, IndianOptions(), seed=seed)
    rng = random.Random(seed * 7919 + 1)
    moves = 0
    while not game.is_over and moves < MAX_MOVES:
        seat = game.to_move
        assert seat is not None
        game, _ = game.apply(players[seat](game, seat, rng))
        moves += 1
    if not game.is_over:
        return None, moves
    return game.results[-1].winners[0], moves


def match(label: str, computer_seat: Callable[[int], int], players_for: Callable[[int], tuple],
          deals: int, seed: int) -> tuple[float, float, float]:
    wins = 0.0
    counted = 0
    abandoned = 0
    lengths = []
    started = time.perf_counter()
    for i in range(deals):
        s = seed + i
        winner, moves = play(players_for(s), s)
        lengths.append(moves)
        if winner is None:
            abandoned += 1
            continue
        counted += 1
        wins += winner == computer_seat(s)
    elapsed = time.perf_counter() - started
    rate = wins / counted if counted else 0.0
    low, high = wilson(wins, counted)
    print(f"{label}: {int(wins)}/{counted} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}); "
          f"median {statistics.median(lengths):.0f} moves per deal, {abandoned} abandoned, "
          f"{elapsed:.1f} s")
    return rate, low, high


def grouping_times(hands: int, seed: int) -> tuple[float, float]:
    """Median and 99th percentile (ms) of the IND-23 search on 14-card two-pack hands."""
    rng = random.Random(seed)
    deck = card_deck(2, 2)
    times = []
    for _ in range(hands):
        cards = rng.sample(deck, 14)
        rules = indian_rules(rng.randint(1, 13))
        start = time.perf_counter()
        show_arrangement(cards, rules)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    def versus_random(s: int) -> tuple[Player, Player]:
        return (choose_move, random_move) if s % 2 == 0 else (random_move, choose_move)

    rate, low, high = match("computer vs random", lambda s: s % 2, versus_random,
                            args.deals, args.seed)
    # The computer sits in seat 0 on even seeds: count its wins.
    self_rate, self_low, self_high = match(
        "computer vs computer (seat 0)", lambda s: 0, lambda s: (choose_move, choose_move),
        args.deals, args.seed)
    median, p99 = grouping_times(1000, args.seed)
    print(f"best grouping of 14 cards (2 packs, wild rank, printed jokers): median "
          f"{median:.2f} ms, p99 {p99:.2f} ms")
    verdict = "PASS" if rate >= 0.90 else "FAIL"
    print(f"SUMMARY indian_ai: vs random {rate:.1%} [{low:.1%}, {high:.1%}] ({verdict}, target "
          f"≥ 90%); vs itself {self_rate:.1%} [{self_low:.1%}, {self_high:.1%}]; grouping "
          f"median {median:.2f} ms over {args.deals} deals each")


if __name__ == "__main__":
    main()
