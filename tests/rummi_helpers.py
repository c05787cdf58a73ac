"""Builders that state a Rummi position the way the worked examples write it (40-rummi.md).

The examples name players A, B, C, D in turn order. Rummi turns go anticlockwise
(decreasing seats, RMI-3), so with seat 0 dealing, turn order is n−1, n−2, …, 0:
:func:`who` gives the seats of A, B, C … for a table of ``players``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from bot.engine.cards import Card
from bot.engine.game import Move
from bot.engine.melds import read_meld
from bot.engine.moves import LayOff, MeldDown, placed
from bot.engine.table import TableMeld
from bot.engine.variants.rummi import RummiGame, RummiOptions
from tests.engine_helpers import cards, groups


def who(players: int = 4) -> tuple[int, ...]:
    """Seats in turn order when seat 0 deals: A = n−1, B = n−2, …, the dealer last."""
    return tuple(range(players - 1, -1, -1))


def rummi(players: int = 4, *, held: list[str], table: list[str | tuple[int, str]] = (),
          turn: int | None = None, passport: list[bool] | bool = True,
          out: list[bool] | None = None, seed: int = 1, **options: Any) -> RummiGame:
    """A game at the start of ``turn``'s turn (default A) with seat 0 dealing.

    ``held`` lists hands in TURN ORDER (A first); ``passport`` and ``out`` too.
    ``table`` lists melds in number order as ``"5H JK=6H 7H"`` or ``(owner seat, text)``.
    Every card placed nowhere else is set aside.
    """
    game = RummiGame.new(players, RummiOptions.build(**options), seed=seed)
    order = who(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, text in enumerate(held):
        hands[order[i]] = cards(text)
    melds = []
    for i, entry in enumerate(table):
        owner, text = entry if isinstance(entry, tuple) else (order[0], entry)
        (group,) = groups(text)
        melds.append(TableMeld(i + 1, owner, read_meld(list(group), game.rules)))
    used: Counter[Card] = Counter(c for h in hands for c in h)
    used.update(c for m in melds for c in m.meld.pieces)  # type: ignore[misc]
    deck = game.deck()
    assert not used - deck, f"more copies than the deck holds: {used - deck}"
    flags = passport if isinstance(passport, list) else [passport] * players
    outs = out or [False] * players
    by_seat_passport = [False] * players
    by_seat_out = [False] * players
    for i, seat in enumerate(order):
        by_seat_passport[seat] = flags[i]
        by_seat_out[seat] = outs[i]
    return dataclasses.replace(
        game, hands=hands, table=melds, set_aside=list((deck - used).elements()),
        turn=order[0] if turn is None else turn, dealer=0, out=by_seat_out,
        notes=["no play" if o else "" for o in by_seat_out], passport=by_seat_passport,
        actions=0, phase="play", division=[])


def play(game: RummiGame, *moves: Move) -> RummiGame:
    """Apply moves in order (each must be accepted)."""
    for move in moves:
        game, _ = game.apply(move)
    return game


def meld(seat: int, text: str) -> MeldDown:
    return MeldDown(seat, groups(text))


def add(seat: int, text: str, number: int) -> LayOff:
    return LayOff(seat, placed(*cards(text)), number)


def melds_text(game: RummiGame) -> list[str]:
    return [m.meld.codes for m in game.table]


def dealt(players: int, held: list[str], seed: int = 1, **options: Any) -> RummiGame:
    """A new game whose deal gives the players in turn order (A first) the ``held`` hands.

    The rest of each hand is dealt from the shuffled rest of the deck; everything else
    (dealer, the checks before play, RMI-7) runs as in a real game.
    """
    return _Rigged.new(players, RummiOptions.build(**options), seed=seed).rigged(held)


@dataclasses.dataclass(kw_only=True)
class _Rigged(RummiGame):
    """RummiGame with a chosen deal (the first deal is redone once the hands are known)."""

    def rigged(self, held: list[str]) -> RummiGame:
        game = dataclasses.replace(self)
        game._held = held  # type: ignore[attr-defined]
        game.game_number = 0
        game.results = []
        game.payments = []
        game._deal([])
        return RummiGame(**{f.name: getattr(game, f.name) for f in dataclasses.fields(game)})

    def _deal_hands(self, deck: list[Card], first: int) -> list[list[Card]]:
        held = getattr(self, "_held", [])
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        for i, text in enumerate(held):
            seat = (first - i) % self.players
            for c in cards(text):
                deck.remove(c)
                hands[seat].append(c)
        for seat in range(self.players):
            while len(hands[seat]) < self.hand_size():
                hands[seat].append(deck.pop(0))
        return hands
