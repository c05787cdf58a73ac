"""Small builders that let engine tests state a position the way the specs write it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from bot.engine.cards import Card, Piece, card_deck
from bot.engine.errors import IllegalMove
from bot.engine.game import Game, Move
from bot.engine.melds import read_meld
from bot.engine.moves import Placed
from bot.engine.notation import CARDS, TILES, parse_groups, parse_list
from bot.engine.table import TableMeld
from bot.engine.variants.straight import StraightGame, StraightOptions


def cards(text: str) -> list[Card]:
    """``cards("7H 8H 9H")`` → the cards, in order."""
    return [ref.piece for ref in parse_list(text, CARDS)] if text.strip() else []


def tiles(text: str) -> list[Piece]:
    return [ref.piece for ref in parse_list(text, TILES)] if text.strip() else []


def card(text: str) -> Card:
    (one,) = cards(text)
    return one


def groups(text: str) -> tuple[tuple[Placed, ...], ...]:
    """``groups("AS 2S 3S | JK=7H 7D 7C")`` → groups with joker faces, as a move holds them."""
    return tuple(tuple((ref.piece, ref.stands_for) for ref in group)
                 for group in parse_groups(text, CARDS))


def refused(game: Game, move: Move, reason: str | None = None) -> None:
    """``move`` raises IllegalMove (with ``reason``, when given) and the game is unchanged."""
    before = game.to_json()
    with pytest.raises(IllegalMove) as error:
        game.apply(move)
    if reason is not None:
        assert str(error.value) == reason
    assert game.to_json() == before


def straight(players: int = 3, *, held: list[str] | None = None, stock: str | None = None,
             discard: str | None = None, table: list[tuple[int, str]] | None = None,
             turn: int = 0, phase: str = "draw", seed: int = 1, **options: Any) -> StraightGame:
    """A Straight game in a chosen position, as a worked example describes it.

    ``held`` lists each seat's cards (``hands`` is the Straight option).
    ``stock`` is written top first (the next card drawn comes first); when it
    is omitted the stock holds every card placed nowhere else. ``discard`` is
    bottom to top; ``table`` lists (owner, cards) in meld-number order.
    """
    game = StraightGame.new(players, StraightOptions.build(**options), seed=seed)
    if held is None:
        return game
    hand_cards = [cards(h) for h in held]
    pile = cards(discard) if discard is not None else []
    melds = [TableMeld(i + 1, owner, read_meld(cards(text), game.rules))
             for i, (owner, text) in enumerate(table or [])]
    placed = Counter(c for group in (*hand_cards, pile) for c in group)
    placed.update(c for m in melds for c in m.meld.pieces)
    assert not placed - Counter(card_deck(1)), "a card is placed twice"
    if stock is None:
        stock_cards = list((Counter(card_deck(1)) - placed).elements())
    else:
        stock_cards = cards(stock)
    return dataclasses.replace(
        game, hands=hand_cards, stock=stock_cards[::-1], pile=pile, table=melds, turn=turn,
        phase=phase, dealer=(turn - 1) % players, active=[True] * players,
        has_melded=[False] * players, played_before=[False] * players,
        known=[[] for _ in range(players)])


def all_cards(game: StraightGame) -> Counter:
    """Every card of a Straight game, wherever it is."""
    found = Counter(c for hand in game.hands for c in hand)
    found.update(game.stock)
    found.update(game.discard)
    found.update(c for m in game.table for c in m.meld.pieces)
    return found
