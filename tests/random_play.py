"""One random-play loop for every variant's property tests and the variant contract test.

Moves come from ``pick`` (legal, the computer's, or often illegal); whatever
comes, a refusal is one line and changes nothing, ``apply`` never changes the
game it is called on, ``check`` holds after every move, and the seed plus the
moves (through their JSON form) replay the same game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.cards import Piece
from bot.engine.errors import IllegalMove
from bot.engine.game import Game, Move, Timeout
from bot.engine.moves import Done, LayOff, MeldDown, Swap, placed

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


def wild_shedding_move(game: Any, deck: Sequence[Piece], rng: random.Random,
                       concede: Callable[[int, random.Random], Move]) -> Move:
    """A move that is often illegal in a dealt-hand game (Penang, Rummi): any seat, any
    cards, any meld number; ``concede`` makes the variant's way out for a seat."""
    seat = rng.randrange(game.players)
    hand = game.hands[seat]
    some = rng.sample(list(deck), rng.randint(1, 4))
    if hand and rng.random() < 0.5:
        some = rng.sample(hand, min(len(hand), rng.randint(1, 4)))
    kind = rng.randrange(7)
    if kind == 0:
        return MeldDown(seat, (placed(*some),))
    if kind == 1:
        return LayOff(seat, placed(*some), rng.randint(0, len(game.table) + 1))
    if kind == 2:
        return Swap(seat, some[0], rng.randint(0, len(game.table) + 1))
    if kind == 3:
        return Done(seat)
    if kind == 4:
        return Timeout(seat)
    if kind == 5 and rng.random() < 0.1:
        return concede(seat, rng)
    return MeldDown(seat, (placed(*some[:2]), placed(*some[2:])))
