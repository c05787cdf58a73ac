"""The two-player computer bench shared by bench/remi_ai.py and bench/rummy500.py.

Games of the computer against the random legal player (seats alternate with
the seed) and against itself (rating seat 0). A game whose winners share the
win counts 1/k for each; a game still running after ``MAX_MOVES`` moves is
abandoned and not counted. Rates come with 95% Wilson intervals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.common import Spread, wilson
from bot.ai.random_player import random_move
from bot.engine.game import Game, Move

Player = Callable[[Any, int, random.Random], Move]
MAX_MOVES = 20000


@dataclass
class HeadsUp:
    """What differs between variants: the game, the computer, what a round is called."""

    new_game: Callable[[int], Game]
    """A fresh two-player game for a seed."""
    computer: Player
    rounds: str = "hands"
    """What one round of a game is called in the report (Remi: deals)."""
    choose_ms: list[float] = field(default_factory=list)
    """Time of every computer move of the run (milliseconds)."""

    def timed(self, game: Game, seat: int, rng: random.Random) -> Move:
        start = time.perf_counter()
        move = self.computer(game, seat, rng)
        self.choose_ms.append((time.perf_counter() - start) * 1000)
        return move

    def play(self, players: tuple[Player, Player], seed: int
             ) -> tuple[tuple[int, ...] | None, int]:
        """One game; returns (winning seats or None if abandoned, rounds played)."""
        game = self.new_game(seed)
        rng = random.Random(seed * 7919 + 1)
        for _ in range(MAX_MOVES):
            if game.is_over:
                return game.winners, len(game.history())  # type: ignore[attr-defined]
            seat = game.to_move
            assert seat is not None
            game, _ = game.apply(players[seat](game, seat, rng))
        return None, len(game.history())

    def match(self, label: str, computer_seat: Callable[[int], int],
              players_for: Callable[[int], tuple[Player, Player]], games: int, seed: int
              ) -> tuple[float, float, float]:
        """Play ``games`` games and print the computer's rate; returns (rate, low, high)."""
        wins = 0.0
        counted = abandoned = 0
        rounds: list[float] = []
        started = time.perf_counter()
        for i in range(games):
            s = seed + i
            winners, played = self.play(players_for(s), s)
            rounds.append(played)
            if winners is None:
                abandoned += 1
                continue
            counted += 1
            if computer_seat(s) in winners:
                wins += 1 / len(winners)
        elapsed = time.perf_counter() - started
        rate = wins / counted if counted else 0.0
        low, high = wilson(wins, counted)
        print(f"{label}: {wins:g}/{counted} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}); "
              f"median {Spread.of(rounds).median:.0f} {self.rounds} per game, {abandoned} "
              f"abandoned, {elapsed:.0f} s", flush=True)
        return rate, low, high

    def versus_random(self, label: str, games: int, seed: int) -> tuple[float, float, float]:
        """The computer against the random legal player, seats alternating."""
        def players(s: int) -> tuple[Player, Player]:
            return (self.timed, random_move) if s % 2 == 0 else (random_move, self.timed)

        return self.match(label, lambda s: s % 2, players, games, seed)

    def versus_itself(self, label: str, games: int, seed: int) -> tuple[float, float, float]:
        """The computer against itself; seat 0's rate."""
        return self.match(label, lambda s: 0, lambda s: (self.timed, self.timed), games, seed)
