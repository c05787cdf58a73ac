"""Builders that state a Penang position the way the worked examples write it (30-penang.md)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from bot.engine.cards import Card
from bot.engine.melds import read_meld
from bot.engine.table import TableMeld
from bot.engine.variants.penang import PenangGame, PenangOptions
from tests.engine_helpers import cards, groups

A, B, C, D, E = 0, 1, 2, 3, 4


def penang(players: int = 4, *, held: list[str], table: list[str | tuple[int, str]] = (),
           turn: int = 0, passport: list[bool] | bool = True, out: list[bool] | None = None,
           seed: int = 1, **options: Any) -> PenangGame:
    """A game at the start of ``turn``'s turn with the given hands and table.

    ``table`` lists melds in number order, as ``"9C JK=10C JC"`` (jokers may be
    designated, NOT-8) or ``(owner, text)``; ``passport`` is one flag for all
    or one per seat. Every card placed nowhere else is set aside.
    """
    game = PenangGame.new(players, PenangOptions.build(**options), seed=seed)
    return position(game, held=held, table=table, turn=turn, passport=passport, out=out)


def position(game: PenangGame, *, held: list[str], table: list[str | tuple[int, str]] = (),
             turn: int = 0, passport: list[bool] | bool = True,
             out: list[bool] | None = None) -> PenangGame:
    """``game`` (its match so far) with the game in play replaced as :func:`penang` describes."""
    players = game.players
    hands = [cards(h) for h in held] + [[] for _ in range(players - len(held))]
    melds = []
    for i, entry in enumerate(table):
        owner, text = entry if isinstance(entry, tuple) else (0, entry)
        (group,) = groups(text)
        melds.append(TableMeld(i + 1, owner, read_meld(list(group), game.rules)))
    placed: Counter[Card] = Counter(c for h in hands for c in h)
    placed.update(c for m in melds for c in m.meld.pieces)  # type: ignore[misc]
    deck = game.deck()
    assert not placed - deck, f"more copies than the deck holds: {placed - deck}"
    flags = passport if isinstance(passport, list) else [passport] * players
    return dataclasses.replace(
        game, hands=hands, table=melds, set_aside=list((deck - placed).elements()), turn=turn,
        dealer=(turn - 1) % players, out=out or [False] * players, notes=[""] * players,
        passport=list(flags), actions=0, phase="play")


def play(game: PenangGame, *moves: Any) -> PenangGame:
    """Apply moves in order (each must be accepted)."""
    for move in moves:
        game, _ = game.apply(move)
    return game


def melds_text(game: PenangGame) -> list[str]:
    return [m.meld.codes for m in game.table]
