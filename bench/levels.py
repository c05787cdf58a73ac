"""Bench: the three computer levels of every variant against the level below (issue 23).

Usage (from the project root)::

    .venv/bin/python bench/levels.py [--games 1000] [--variants straight,indian]
        [--playouts 40 | --seconds 1.0] [--seed 0]

Per variant, one-hand games (Straight ``hands:1``, Remi ``deals:1``, the
others' defaults are one game):

* two players (Straight, Indian, Remi, Tile Rummy): strong vs standard, standard
  vs easy, easy vs random, seats alternating; targets ≥ 55%, ≥ 65%, ≥ 80%;
* four players (Penang, Rummi): one of a level (in seat ``seed % 4``) against
  three of the level below; targets strong ≥ 35%, standard ≥ 35%, easy vs random
  ≥ 80% as in two-player games is not asked, so it is printed without a target;
  Rummi's standard player against three random players, target ≥ 55%.

A game is won by the best result of its hand; players tied for it share the win.
Rates are printed with 95% Wilson intervals, and the higher level's seconds per
move (median, p99; for the strong level, target median ≤ 1 s and p99 ≤ 2 s).
The strong player's budget is ``--playouts`` samples per move (deterministic for
the seed) or ``--seconds`` per move, as the bot uses. One SUMMARY line per
variant, then a final one.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bench.common import Spread, load_average, wilson
from bot.ai.levels import Budget, Strong
from bot.ai.random_player import random_move
from bot.engine.game import Game, Move
from bot.registry import VARIANTS

Player = Callable[[Any, int, random.Random], Move]

ONE_HAND: dict[str, dict[str, Any]] = {"straight": {"hands": 1}, "remi": {"deals": 1}}
"""Options that make a match one hand, where the default plays more."""
FOUR_PLAYERS = ("penang", "rummi")
TWO_PLAYER_TARGETS = {"strong": 0.55, "standard": 0.65, "easy": 0.80}
FOUR_PLAYER_TARGETS = {"strong": 0.35, "standard": 0.35}
RUMMI_STANDARD_VS_RANDOM = 0.55
MEDIAN_SECONDS = 1.0
P99_SECONDS = 2.0


@dataclass
class Matchup:
    """One level against the level below, and what came of it."""

    label: str
    high: str
    low: str
    target: float | None
    wins: float = 0.0
    games: int = 0
    seconds: list[float] = field(default_factory=list)
    """Seconds per move of the higher level."""

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        return self.rate >= self.target

    def text(self) -> str:
        low, high = self.interval()
        aim = f" (target ≥ {self.target:.0%}: {'met' if self.met else 'MISSED'})" \
            if self.target is not None else ""
        spread = Spread.of(self.seconds)
        return (f"{self.label}: {self.wins:.1f}/{self.games} = {self.rate:.1%} "
                f"[{low:.1%}, {high:.1%}]{aim}; {self.high} s/move median "
                f"{spread.median:.3f}, p99 {spread.p99:.3f}")


def player(key: str, level: str, budget: Budget) -> Player:
    if level == "random":
        return random_move
    chooser = VARIANTS[key].computers[level]
    if isinstance(chooser, Strong):
        return partial(chooser, budget=budget)
    return chooser


def new_game(key: str, players: int, seed: int) -> Game[Any]:
    cls = VARIANTS[key].game
    return cls.new(players, cls.options_type.build(**ONE_HAND.get(key, {})), seed)


def share(game: Game[Any], seat: int) -> float:
    """1/k if ``seat`` is one of k seats tied for the best total, else 0."""
    totals = game.history()[-1].totals if game.history() else (0,) * game.players
    best = min(totals) if game.lower_is_better else max(totals)
    return 1 / list(totals).count(best) if totals[seat] == best else 0.0


def play(key: str, players: Sequence[Player], seed: int, timed: int,
         seconds: list[float]) -> Game[Any]:
    """One game; the seconds of each move of seat ``timed`` are appended to ``seconds``."""
    game = new_game(key, len(players), seed)
    rng = random.Random(seed * 7919 + 1)
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        started = time.perf_counter()
        move = players[seat](game, seat, rng)
        if seat == timed:
            seconds.append(time.perf_counter() - started)
        game, _ = game.apply(move)
    return game


def run(key: str, matchup: Matchup, games: int, seed: int, budget: Budget) -> Matchup:
    seats = 4 if key in FOUR_PLAYERS else 2
    high = player(key, matchup.high, budget)
    low = player(key, matchup.low, budget)
    for i in range(games):
        s = seed + i
        seat = s % seats
        lineup = [high if k == seat else low for k in range(seats)]
        game = play(key, lineup, s, seat, matchup.seconds)
        matchup.wins += share(game, seat)
        matchup.games += 1
    return matchup


def matchups(key: str) -> list[Matchup]:
    if key in FOUR_PLAYERS:
        found = [Matchup("strong vs 3 standard", "strong", "standard",
                         FOUR_PLAYER_TARGETS["strong"]),
                 Matchup("standard vs 3 easy", "standard", "easy",
                         FOUR_PLAYER_TARGETS["standard"]),
                 Matchup("easy vs 3 random", "easy", "random", None)]
        if key == "rummi":
            found.append(Matchup("standard vs 3 random", "standard", "random",
                                 RUMMI_STANDARD_VS_RANDOM))
        return found
    return [Matchup("strong vs standard", "strong", "standard", TWO_PLAYER_TARGETS["strong"]),
            Matchup("standard vs easy", "standard", "easy", TWO_PLAYER_TARGETS["standard"]),
            Matchup("easy vs random", "easy", "random", TWO_PLAYER_TARGETS["easy"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--strong-games", type=int, default=None,
                        help="games of strong vs standard (default: --games)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    budget = Budget(playouts=args.playouts, seconds=args.seconds) \
        if args.playouts or args.seconds else Budget(seconds=1.0)
    print(f"budget {budget}; load average {load_average()}", flush=True)
    met_all = True
    summaries = []
    for key in args.variants.split(","):
        results = []
        for matchup in matchups(key):
            games = args.strong_games if matchup.high == "strong" and args.strong_games \
                else args.games
            started = time.perf_counter()
            run(key, matchup, games, args.seed, budget)
            print(f"{key} {matchup.text()}; {time.perf_counter() - started:.0f} s", flush=True)
            results.append(matchup)
        strong = next(m for m in results if m.high == "strong")
        spread = Spread.of(strong.seconds)
        fast = spread.median <= MEDIAN_SECONDS and spread.p99 <= P99_SECONDS
        ok = all(m.met is not False for m in results) and fast
        met_all = met_all and ok
        line = "; ".join(f"{m.label} {m.rate:.1%} [{m.interval()[0]:.1%}, "
                         f"{m.interval()[1]:.1%}] n={m.games}" for m in results)
        summaries.append(f"SUMMARY {key}: {line}; strong s/move median {spread.median:.2f} "
                         f"p99 {spread.p99:.2f} ({'all met' if ok else 'NOT all met'})")
        print(summaries[-1], flush=True)
    print(f"SUMMARY levels: {len(summaries)} variants, "
          f"{'every target met' if met_all else 'some targets missed'} (budget {budget})")


if __name__ == "__main__":
    main()
