"""The variants the bot can run, and what it needs to know about each."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .ai import indian as indian_ai
from .ai import straight as straight_ai
from .engine.game import Game, Move
from .engine.variants.indian import IndianGame
from .engine.variants.straight import StraightGame

ChooseMove = Callable[[Game, int, random.Random], Move]


@dataclass(frozen=True, slots=True)
class Variant:
    """One playable variant: its engine class and its computer player."""

    key: str
    game: type[Game]
    choose_move: ChooseMove

    @property
    def title(self) -> str:
        return self.game.title


VARIANTS: dict[str, Variant] = {
    "straight": Variant("straight", StraightGame, straight_ai.choose_move),  # type: ignore[arg-type]
    "indian": Variant("indian", IndianGame, indian_ai.choose_move),  # type: ignore[arg-type]
}

ALL_TITLES = {
    "straight": "Straight Rummy",
    "indian": "Indian Rummy",
    "penang": "Penang Rummy",
    "rummi": "Rummi (Singapore)",
    "remi": "Indonesian Remi",
    "tiles": "Tile Rummy",
}
"""Every variant the product will offer; those not in VARIANTS are not playable yet."""


def variant(key: str) -> Variant:
    try:
        return VARIANTS[key]
    except KeyError:
        raise KeyError(f"{ALL_TITLES.get(key, key)} is not available yet") from None
