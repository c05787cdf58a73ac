"""Builders that state a Rummy 500 position the way the spec's rules and examples write it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from bot.engine.melds import read_meld
from bot.engine.table import TableMeld
from bot.engine.variants.rummy500 import Rummy500Game, Rummy500Options
from tests.engine_helpers import card, cards, groups, refused

__all__ = ["card", "cards", "groups", "new", "refused", "rummy500"]


def new(players: int = 2, seed: int = 1, **options: Any) -> Rummy500Game:
    return Rummy500Game.new(players, Rummy500Options.build(**options), seed=seed)


def rummy500(players: int = 2, *, held: list[str | None], pile: str | None = None,
             stock: str | None = None, table: list[tuple[int, str]] | None = None,
             turn: int = 0, phase: str = "draw", totals: list[int] | None = None,
             seed: int = 1, **options: Any) -> Rummy500Game:
    """A Rummy 500 game in a chosen position.

    ``held`` lists each seat's cards (``None``: seven cards nobody else uses);
    ``pile`` is bottom to top (position 1 last; ``None``: one unused card);
    ``stock`` is written top first and, when omitted, holds every card placed
    nowhere else; ``table`` lists (placer, cards) in the order laid, every card
    credited to that placer.
    """
    game = new(players, seed, **options)
    deck = Counter(game._deck(list(range(players))))
    hands = [cards(h) if h is not None else [] for h in held]
    pile_cards = cards(pile) if pile is not None else []
    melds = [TableMeld(i + 1, owner, read_meld(cards(text), game.rules))
             for i, (owner, text) in enumerate(table or [])]
    placed = Counter(c for group in (*hands, pile_cards) for c in group)
    placed.update(c for m in melds for c in m.meld.pieces)
    over = placed - deck
    assert not over, f"more copies than the deck holds: {sorted(c.code for c in over)}"
    stock_cards = cards(stock) if stock is not None else None
    spare = sorted((deck - placed - Counter(stock_cards or ())).elements(),
                   key=lambda c: c.index * 17 % 53)
    for seat, text in enumerate(held):
        if text is None:
            hands[seat], spare = spare[:7], spare[7:]
            placed.update(hands[seat])
    if pile is None:  # one card nobody else uses starts the pile
        pile_cards, spare = spare[:1], spare[1:]
        placed.update(pile_cards)
    if stock_cards is None:
        stock_cards = list((deck - placed).elements())
    return dataclasses.replace(
        game, hands=hands, pile=pile_cards, stock=stock_cards[::-1], table=melds,
        credit=[[m.owner] * len(m.meld) for m in melds], turn=turn, phase=phase,
        dealer=(turn - 1) % players, drawn=None, taken=None,
        totals=list(totals) if totals is not None else [0] * players,
        active=[True] * players, known=[[] for _ in range(players)])
