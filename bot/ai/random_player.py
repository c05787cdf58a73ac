"""The random legal player: the yardstick the computer players are measured against."""

from __future__ import annotations

import random

from ..engine.game import Game, Move


def random_move(game: Game, seat: int, rng: random.Random) -> Move:
    """A move chosen uniformly among ``game.legal_moves(seat)``."""
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    return rng.choice(moves)
