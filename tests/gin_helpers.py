"""Builders that state a Gin Rummy position the way the spec's rules and examples write it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from bot.engine.cards import Card, card_deck
from bot.engine.variants.gin import GinGame, GinOptions
from tests.engine_helpers import card, cards, groups, refused

__all__ = ["card", "cards", "gin", "groups", "new", "refused"]


def new(seed: int = 1, **options: Any) -> GinGame:
    return GinGame.new(2, GinOptions.build(**options), seed=seed)


def gin(*, held: list[str | None], pile: str = "", stock: str | None = None, turn: int = 0,
        phase: str = "play", dealer: int | None = None, taken: str | None = None,
        upcard: str | None = None, stock_size: int | None = None, seed: int = 1,
        **options: Any) -> GinGame:
    """A game in a chosen position, with the offer over.

    ``held`` lists each seat's cards (``None``: ten cards nobody else uses);
    ``pile`` is bottom to top; ``stock`` is top first and, when omitted, holds
    every card placed nowhere else (cut to ``stock_size`` cards, the rest
    added to the bottom of the pile). ``taken`` is the card taken from the pile
    this turn; ``upcard`` the hand's first upcard (default: the pile's bottom).
    ``dealer`` is the other seat unless given.
    """
    game = new(seed, **options)
    hands = [cards(h) if h is not None else [] for h in held]
    pile_cards = cards(pile)
    placed = Counter(c for group in (*hands, pile_cards) for c in group)
    named_stock = cards(stock) if stock is not None else []
    placed.update(named_stock)
    twice = [c.code for c, n in placed.items() if n > 1]
    assert not twice, f"placed twice: {twice}"
    spare = [c for c in sorted(card_deck(1), key=lambda c: c.index * 17 % 53) if not placed[c]]
    for seat, text in enumerate(held):
        if text is None:
            hands[seat], spare = spare[:10], spare[10:]
    stock_cards = named_stock if stock is not None else spare
    if stock is None and stock_size is not None:
        pile_cards = stock_cards[stock_size:] + pile_cards
        stock_cards = stock_cards[:stock_size]
    elif stock is not None:
        pile_cards = spare + pile_cards  # every card is somewhere
    first: Card | None = card(upcard) if upcard else (pile_cards[0] if pile_cards else None)
    return dataclasses.replace(
        game, hands=hands, pile=pile_cards, stock=stock_cards[::-1], turn=turn, phase=phase,
        dealer=1 - turn if dealer is None else dealer, drawn=None,
        taken=card(taken) if taken else None, offer=0, first_upcard=first,
        known=[[], []])
