"""One random-play loop for every variant's property tests and the variant contract test.

Moves come from ``pick`` (legal, the computer's, or often illegal); whatever
comes, a refusal is one line and changes nothing, ``apply`` never changes the
game it is called on, ``check`` holds after every move, and the seed plus the
moves (through their JSON form) replay the same game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from bot.engine.errors import IllegalMove
from bot.engine.game import Game, Move

Pick = Callable[[Any, int, random.Random], Move]


def random_play(game: Game, steps: int, rng: random.Random, pick: Pick,
                check: Callable[[Any], None]) -> Game:
    """Play up to ``steps`` moves from ``game`` (fresh from ``new``); the game reached."""
    start = game
    check(game)
    log: list[Move] = []
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        move = pick(game, seat, rng)
        before = game.to_json()
        try:
            after, _ = game.apply(move)
        except IllegalMove as refusal:
            assert str(refusal) and "\n" not in str(refusal)
            assert game.to_json() == before, "a refused move changed the game"
            continue
        assert game.to_json() == before, "apply changed the game it was called on"
        game = after
        log.append(move)
        check(game)
    replay = type(start).new(start.players, start.options, start.seed)
    for move in log:
        replay, _ = replay.apply(type(start).move_from_json(
            json.loads(json.dumps(move.to_json()))))
    assert replay == game
    return game
