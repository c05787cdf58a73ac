"""Builders that state a Remi position the way the spec's rules and examples write it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from bot.engine.cards import card_deck
from bot.engine.melds import read_meld
from bot.engine.table import TableMeld
from bot.engine.variants.remi import RULES, RemiGame, RemiOptions
from tests.engine_helpers import card, cards, groups, refused

__all__ = ["card", "cards", "groups", "new", "refused", "remi"]


def new(players: int = 2, seed: int = 1, **options: Any) -> RemiGame:
    return RemiGame.new(players, RemiOptions.build(**options), seed=seed)


def remi(players: int = 2, *, held: list[str | None], pile: str = "", stock: str | None = None,
         table: list[tuple[int, str]] | None = None, turn: int = 0, phase: str = "acquire",
         dealer: int | None = None, totals: list[int] | None = None, seed: int = 1,
         **options: Any) -> RemiGame:
    """A Remi game in a chosen position.

    ``held`` lists each seat's cards (``None``: seven cards nobody else uses);
    ``pile`` is bottom to top (position 1 last); ``stock`` is written top first
    and, when omitted, holds every card
    placed nowhere else; ``table`` lists (owner, cards) in the order laid.
    """
    game = new(players, seed, **options)
    hands = [cards(h) if h is not None else [] for h in held]
    pile_cards = cards(pile)
    melds = [TableMeld(i + 1, owner, read_meld(cards(text), RULES))
             for i, (owner, text) in enumerate(table or [])]
    placed = Counter(c for group in (*hands, pile_cards) for c in group)
    placed.update(c for m in melds for c in m.meld.pieces)
    twice = placed - Counter(card_deck(1))
    assert not twice, f"placed twice: {sorted(c.code for c in twice)}"
    spare = [c for c in sorted(card_deck(1), key=lambda c: c.index * 17 % 53)
             if not placed[c] and (stock is None or c not in cards(stock))]
    for seat, text in enumerate(held):
        if text is None:  # a hand the example does not care about: 7 unused cards
            hands[seat], spare = spare[:7], spare[7:]
            placed.update(hands[seat])
    stock_cards = (list((Counter(card_deck(1)) - placed).elements()) if stock is None
                   else cards(stock))
    return dataclasses.replace(
        game, hands=hands, pile=pile_cards, stock=stock_cards[::-1], table=melds, turn=turn,
        phase=phase, dealer=turn if dealer is None else dealer, drawn=None,
        totals=list(totals) if totals is not None else [0] * players,
        known=[[] for _ in range(players)])
