"""A tiny seeded random number generator kept inside the game state.

Why not :mod:`random`? Its state is 625 machine words, which would bloat
every saved game, and its algorithms are not promised to stay the same across
Python versions. SplitMix64 has a single 64-bit state that serialises as one
integer, passes BigCrush, and makes "same seed, same moves, same game" hold
on any machine.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


@dataclass(slots=True)
class Rng:
    """SplitMix64. ``state`` is the whole generator."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Any integer seed (negative or larger than 64 bits included)."""
        return cls(seed & _MASK)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates: every order equally likely."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
