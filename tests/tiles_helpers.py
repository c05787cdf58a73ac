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


# -- positions as the worked examples state them ---------------------------------

import dataclasses  # noqa: E402
from collections import Counter  # noqa: E402
from typing import Any  # noqa: E402

from bot.engine.melds import read_meld  # noqa: E402
from bot.engine.moves import Placed  # noqa: E402
from bot.engine.notation import TILES, parse_list  # noqa: E402
from bot.engine.variants.tiles import RULES, TableMeld, TilesGame, TilesOptions  # noqa: E402


def tl(text: str) -> list[Tile]:
    """``tl("R7 B7 J")`` → the tiles."""
    return [ref.piece for ref in parse_list(text, TILES)] if text.strip() else []


def one(text: str) -> Tile:
    (tile,) = tl(text)
    return tile


def placed_tiles(text: str) -> tuple[Placed, ...]:
    """``placed_tiles("R9 R10 J=R8")`` → tiles with joker faces, as a Play move holds them."""
    return tuple((ref.piece, ref.stands_for) for ref in parse_list(text, TILES))


def tiles_game(players: int = 2, *, racks: list[str] | None = None,
               table: list[str] | None = None, pool: str | None = None, turn: int = 0,
               initial: list[bool] | None = None, seed: int = 1,
               **options: Any) -> TilesGame:
    """A Tile Rummy game in a chosen position, as a worked example describes it.

    ``table`` lists melds in number order (``"O4 J=O5 O6"``); ``pool`` is written
    next-drawn first; when omitted it holds every tile placed nowhere else.
    ``initial`` defaults to everyone having made the initial meld.
    """
    game = TilesGame.new(players, TilesOptions.build(**options), seed=seed)
    if racks is None:
        return game
    rack_tiles = [tl(r) for r in racks]
    melds = []
    for number, text in enumerate(table or [], start=1):
        items = [(ref.piece, ref.stands_for) for ref in parse_list(text, TILES)]
        meld = read_meld(items, RULES)
        melds.append(TableMeld(number, tuple(meld.pieces), tuple(meld.faces)))
    used = Counter(t for r in rack_tiles for t in r)
    used.update(t for m in melds for t in m.tiles)
    assert not used - Counter(tile_set()), "a tile is placed twice"
    pool_tiles = (list((Counter(tile_set()) - used).elements()) if pool is None
                  else tl(pool))
    game = dataclasses.replace(
        game, racks=rack_tiles, table=melds, pool=pool_tiles[::-1], turn=turn,
        initial=list(initial) if initial is not None else [True] * players, passes=0,
        staged=[], drawn=[None] * players)
    game._reset_stage()
    return game


def all_tiles(game: TilesGame) -> Counter:
    """Every tile of the game: pool, racks and the committed table (TIL-1: 106)."""
    found = Counter(game.pool)
    for rack in game.racks:
        found.update(rack)
    found.update(t for m in game.table for t in m.tiles)
    return found


def staged_codes(game: TilesGame) -> list[str]:
    """The staged table as meld code strings, in meld-number order."""
    return [" ".join(t.code for t in m.tiles) for m in game.staged]
