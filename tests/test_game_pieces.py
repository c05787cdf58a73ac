"""``Game`` is generic over its piece type: a card game takes cards, a tile game tiles.

Moves shared between variants carry ``Card | Tile``; ``Game.own`` narrows a
piece to the game's own kind and refuses the other kind with one line, so a
tile named in a card game never reaches the rules. The piece type comes from
``Game[Card]``/``Game[Tile]``, or from ``tiles`` for an unparameterised
subclass (``Game[Any]``, as variants written before the generic were).
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from bot.engine.cards import Card, Suit, Tile
from bot.engine.errors import IllegalMove
from bot.engine.game import Game
from bot.engine.moves import Discard, LayOff, MeldDown, placed
from bot.engine.notation import CARDS, parse_list
from bot.engine.variants.indian import IndianGame
from bot.engine.variants.straight import StraightGame
from tests.engine_helpers import refused, straight

R7 = Tile(7, 0)
SEVEN_H = Card(7, Suit.H)


class TileGame(Game[Tile]):
    title: ClassVar[str] = "Tile Test"
    tiles: ClassVar[bool] = True


class OldTileGame(Game):
    """An unparameterised subclass: its piece type is read from ``tiles``."""

    title: ClassVar[str] = "Old Tile Test"
    tiles: ClassVar[bool] = True


class OldCardGame(Game):
    title: ClassVar[str] = "Old Card Test"


def test_the_piece_type_comes_from_the_game_argument_or_from_tiles() -> None:
    assert StraightGame.piece_type is Card
    assert IndianGame.piece_type is Card
    assert TileGame.piece_type is Tile
    assert OldTileGame.piece_type is Tile
    assert OldCardGame.piece_type is Card


def test_a_game_argument_that_contradicts_tiles_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="must set tiles = True"):
        class Forgot(Game[Tile]):
            pass
    with pytest.raises(TypeError, match="must set tiles = False"):
        class Wrong(Game[Card]):
            tiles: ClassVar[bool] = True
    with pytest.raises(TypeError, match="must set tiles = False"):
        class TiledStraight(StraightGame):  # a subclass of a Game[Card] is a Game[Card]
            tiles: ClassVar[bool] = True


def test_own_passes_the_game_s_own_pieces_and_refuses_the_other_kind() -> None:
    assert StraightGame.own(SEVEN_H) is SEVEN_H
    assert TileGame.own_all([R7, R7]) == [R7, R7]
    assert OldCardGame.own_all([SEVEN_H]) == [SEVEN_H]
    with pytest.raises(IllegalMove) as error:
        StraightGame.own(R7)
    assert str(error.value) == "R7 is a tile, and Straight Rummy is played with cards: name a card"
    with pytest.raises(IllegalMove, match="7H is a card, and Tile Test is played with tiles"):
        TileGame.own_all([R7, SEVEN_H])
    with pytest.raises(IllegalMove, match="is a card, and Old Tile Test"):
        OldTileGame.own(SEVEN_H)


def test_a_tile_in_a_card_game_s_move_is_refused_and_changes_nothing() -> None:
    game = straight(2, held=["7H 8H 9H 2C", "3D 4D 5D 6D"], discard="KS", phase="play")
    message = "R7 is a tile, and Straight Rummy is played with cards: name a card"
    refused(game, Discard(0, R7), message)
    refused(game, MeldDown(0, (placed(SEVEN_H, Card(8, Suit.H), Tile(9, 0)),)), message.replace(
        "R7", "R9"))
    game = game.apply(MeldDown(0, (placed(SEVEN_H, Card(8, Suit.H), Card(9, Suit.H)),)))[0]
    refused(game, LayOff(0, placed(Tile(10, 0)), 1), message.replace("R7", "R10"))
    indian = IndianGame.new(2, seed=3)
    refused(indian, Discard(indian.to_move or 0, R7), message.replace("Straight", "Indian"))


def test_resolve_returns_the_game_s_own_pieces() -> None:
    game = straight(2, held=["7H 8H 9H 2C", "3D 4D 5D 6D"], discard="KS", phase="play")
    pieces = game.resolve(0, parse_list("9H #1", CARDS), shown=game.hand(0))
    assert pieces == [Card(9, Suit.H), SEVEN_H]
    assert all(isinstance(p, Card) for p in pieces)
