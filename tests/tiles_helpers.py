"""Random Tile Rummy positions for the solver tests and benches."""

from __future__ import annotations

import random

from bot.engine.cards import Face, Tile, tile_set
from bot.engine.tilesolver import Slot


def random_table(rng: random.Random, pool: list[Tile], size: int,
                 jokers: int = 0) -> list[list[Slot]]:
    """Valid melds of about ``size`` tiles taken from ``pool`` (removed from it).

    Melds are grown from random tiles: a run of 3–6 or a set of 3–4 where the
    pool allows; up to ``jokers`` pool jokers replace a tile of a meld of 4+.
    """
    melds: list[list[Slot]] = []
    placed = 0
    tries = 0
    while placed < size and tries < 2000:
        tries += 1
        seed = rng.choice([t for t in pool if not t.is_joker])
        if rng.random() < 0.55:
            length = rng.randint(3, 6)
            start = rng.randint(max(1, seed.rank - length + 1), seed.rank)
            want = [Tile(n, seed.suit) for n in range(start, start + length) if n <= 13]
        else:
            colours = [c for c in range(4) if c != seed.suit]
            rng.shuffle(colours)
            want = [seed] + [Tile(seed.rank, c) for c in colours[:rng.randint(2, 3)]]
        if len(want) < 3 or any(pool.count(t) < want.count(t) for t in want):
            continue
        for t in want:
            pool.remove(t)
        slots: list[Slot] = [(t, Face(t.rank, t.suit)) for t in want]
        if jokers and len(want) >= 4 and rng.random() < 0.5 and any(t.is_joker for t in pool):
            i = rng.randrange(len(want))
            joker = next(t for t in pool if t.is_joker)
            pool.remove(joker)
            pool.append(want[i])
            face = Face(want[i].rank, want[i].suit if len(set(t.rank for t in want)) > 1 else -1)
            slots[i] = (joker, face)
            jokers -= 1
        melds.append(slots)
        placed += len(want)
    return melds


def random_position(seed: int, table_size: int, rack_size: int = 14, max_jokers: int = 2,
                    table_jokers: int = 0) -> tuple[list[list[Slot]], list[Tile]]:
    """A table of about ``table_size`` tiles and a rack with at most ``max_jokers`` jokers."""
    rng = random.Random(seed)
    pool = tile_set()
    rng.shuffle(pool)
    table = random_table(rng, pool, table_size, table_jokers)
    numbered = [t for t in pool if not t.is_joker]
    jokers = [t for t in pool if t.is_joker]
    k = min(len(jokers), rng.randint(0, max_jokers))
    rack = jokers[:k] + numbered[:rack_size - k]
    return table, rack
