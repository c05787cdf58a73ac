"""Builders for Indian Rummy tests: state a deal the way the spec's examples write it.

(A module of helpers; its one test checks the builder itself.)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from bot.engine.cards import JOKER, card_deck
from bot.engine.variants.indian import IndianGame, IndianOptions
from tests.engine_helpers import card, cards, groups, refused

__all__ = ["card", "cards", "groups", "indian", "position", "refused"]


def indian(players: int = 2, *, held: list[str], cut: str | None = "10H", open: str = "5C",
           closed: str | None = None, turn: int = 0, phase: str = "draw", packs: int | None = None,
           seed: int = 1, totals: list[int] | None = None, **options: Any) -> IndianGame:
    """An Indian game in a chosen position.

    ``held`` lists each seat's cards (14 for the player to move when ``phase``
    is ``discard``). ``cut`` is the cut joker (``JK`` makes aces wild; ``None``
    shows none). ``open`` is bottom to top, ``closed`` top first; when
    ``closed`` is omitted it holds every card placed nowhere else.
    """
    game = IndianGame.new(players, IndianOptions.build(**options), seed=seed)
    return position(game, held=held, cut=cut, open=open, closed=closed, turn=turn, phase=phase,
                    packs=packs, totals=totals)


def position(game: IndianGame, *, held: list[str], cut: str | None = "10H", open: str = "5C",
             closed: str | None = None, turn: int = 0, phase: str = "draw",
             packs: int | None = None, totals: list[int] | None = None) -> IndianGame:
    """Replace the deal in play of ``game`` (for later deals of a match)."""
    n = game.players
    packs = packs or game.packs
    hands = [cards(h) for h in held]
    pile = cards(open)
    cut_card = None if cut is None else (JOKER if cut == "JK" else card(cut))
    deck = Counter(card_deck(packs, packs))
    placed = Counter(c for group in (*hands, pile) for c in group)
    if cut_card is not None:
        placed[cut_card] += 1
    assert not placed - deck, f"cards placed too often: {placed - deck}"
    if closed is None:
        rest = sorted((deck - placed).elements(), key=lambda c: c.index)
        closed_cards = rest
    else:
        closed_cards = cards(closed)
    in_play = [bool(h) for h in hands]
    return dataclasses.replace(
        game, hands=hands, stock=closed_cards[::-1], pile=pile, cut_joker=cut_card,
        packs=packs, turn=turn, phase=phase, dealer=(turn - 1) % n, active=in_play,
        has_drawn=[phase == "discard" and s == turn for s in range(n)],
        deal_points=[0] * n, deal_notes=["" if in_play[s] else "not dealt in" for s in range(n)],
        discarded=bool(pile[:-1]) or len(pile) != 1,
        drawn=hands[turn][-1] if phase == "discard" else None, known=[[] for _ in range(n)],
        totals=list(totals) if totals is not None else list(game.totals))


def test_builder_places_every_card_once() -> None:
    game = indian(2, held=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "AH 2H 3H 4H 5H 6H 7H 8H "
                           "9H 10H JH QH KH"], cut="JK", open="5C")
    assert game.all_cards() == game.deck()
