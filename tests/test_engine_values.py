"""Games as values: a clone shares nothing mutable, and snapshots read back exactly.

``Game.clone`` and ``serial.from_data`` work out per type, once, how to copy
and how to read each field; these check that shortcut against the plain
definition for every registered variant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from bot.engine.cards import JOKER, Card, Face, Suit, Tile
from bot.engine.game import Game
from bot.engine.rng import Rng
from bot.engine.serial import from_data, to_data
from bot.registry import VARIANTS


def mutable_parts(value: Any) -> list[Any]:
    """Every list, dict and generator inside ``value`` (through lists, dicts and tuples)."""
    found: list[Any] = []
    if isinstance(value, list | dict | Rng):
        found.append(value)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        for item in value:
            found.extend(mutable_parts(item))
    return found


def played(key: str, steps: int = 40) -> Game:
    variant = VARIANTS[key]
    game = variant.game.new(variant.game.min_players, seed=7)
    rng = random.Random(7)
    for _ in range(steps):
        if game.is_over or game.to_move is None:
            break
        game, _ = game.apply(variant.choose_move(game, game.to_move, rng))
    return game


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_a_clone_shares_no_mutable_part(key: str) -> None:
    game = played(key)
    copy = game.clone()
    assert copy == game
    mine = {id(p) for name in vars(game) for p in mutable_parts(getattr(game, name))}
    theirs = {id(p) for name in vars(copy) for p in mutable_parts(getattr(copy, name))}
    assert not mine & theirs


@dataclass(frozen=True)
class Sample:
    pieces: tuple[Card | Tile, ...]
    face: Face | None
    word: Literal["a", "b"]
    nested: list[list[Card]]
    table: dict[str, tuple[int, ...]]
    maybe: int | str | None = None


def test_typed_values_read_back_exactly() -> None:
    value = Sample((Card(7, Suit.H), JOKER, Tile(5, 1)), Face(7, Suit.S), "b",
                   [[Card(1, Suit.C)], []], {"x": (1, 2)}, "text")
    assert from_data(Sample, to_data(value)) == value
    assert from_data(Sample, {**to_data(value), "maybe": 3}).maybe == 3
    with pytest.raises(ValueError):
        from_data(Sample, {**to_data(value), "word": "c"})
    with pytest.raises(TypeError):
        from_data(list[int], [True])
