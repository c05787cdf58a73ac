"""Tile Rummy computer players: what the easy and strong levels do with a turn (issue 12)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.ai.tiles import choose_easy, choose_strong
from bot.engine.game import Move
from bot.engine.moves import Done, Draw
from bot.engine.tilesolver import best_play
from bot.engine.variants.tiles import Play, TilesGame, TilesOptions
from tests.tiles_helpers import tiles_game, tl


def play_turn(game: TilesGame, choose) -> tuple[TilesGame, list[Move]]:
    """The seat on turn plays its whole turn with ``choose``; the moves it made."""
    seat = game.to_move
    rng = random.Random(0)
    moves: list[Move] = []
    while game.to_move == seat and not game.is_over:
        move = choose(game, seat, rng)
        moves.append(move)
        game, _ = game.apply(move)
        if isinstance(move, Done | Draw):
            break
    return game, moves


def test_easy_lays_a_new_meld_then_adds_its_other_tiles_to_table_melds() -> None:
    game = tiles_game(racks=["K7 K8 K9 R6 O9 B1", "B2 B3 B4"],
                      table=["R3 R4 R5", "O10 O11 O12"], turn=0, turn_seconds=0)
    after, moves = play_turn(game, choose_easy)
    assert moves[0] == Play(0, tuple((t, None) for t in tl("K7 K8 K9")))
    added = [m.tiles[0][0].code for m in moves if isinstance(m, Play) and m.meld is not None]
    assert added == ["O9", "R6"]  # the dearest first
    assert isinstance(moves[-1], Done)
    assert after.racks[0] == tl("B1")
    assert {" ".join(t.code for t in m.tiles) for m in after.table} >= {
        "R3 R4 R5 R6", "O9 O10 O11 O12", "K7 K8 K9"}


def test_easy_adds_tiles_even_without_a_new_meld() -> None:
    game = tiles_game(racks=["R6 B1", "B2 B3 B4"], table=["R3 R4 R5"], turn=0,
                      turn_seconds=0)
    after, moves = play_turn(game, choose_easy)
    assert [type(m) for m in moves] == [Play, Done]
    assert after.racks[0] == tl("B1")


def test_TIL_16_easy_adds_nothing_to_the_table_before_its_initial_meld() -> None:
    game = tiles_game(racks=["R6 B1", "B2 B3 B4"], table=["R3 R4 R5"], turn=0,
                      initial=[False, True], turn_seconds=0)
    after, moves = play_turn(game, choose_easy)
    assert moves == [Draw(0, "pool")]
    assert len(after.racks[0]) == 3


@pytest.mark.parametrize("seed", range(6))
def test_easy_never_moves_a_tile_already_on_the_table(seed: int) -> None:
    """Every meld on the table at the start of easy's turn is still whole in one meld after
    it (easy grows melds, never splits or rearranges them); strong may rearrange."""
    game = TilesGame.new(2, TilesOptions(turn_seconds=0), seed)
    rng = random.Random(seed)
    turns = 0
    while not game.is_over and turns < 60:
        seat = game.to_move
        assert seat is not None
        if seat == 0:
            before = [Counter(m.tiles) for m in game.table]
            game, _ = play_turn(game, choose_easy)
            after = [Counter(m.tiles) for m in game.table]
            for meld in before:
                assert any(not meld - grown for grown in after), meld
        else:
            game, _ = play_turn(game, lambda g, s, _r: choose_strong(g, s, rng))
        turns += 1
    assert turns > 10


def test_strong_places_what_the_best_play_places() -> None:
    game = tiles_game(racks=["R2 R6 B5 O5 K5 J", "B2 B3 B4"],
                      table=["R3 R4 R5", "B6 B7 B8"], turn=0, turn_seconds=0)
    best = best_play([m.slots for m in game.table], game.racks[0], True,
                     game.options.solve_rules)
    after, moves = play_turn(game, choose_strong)
    assert isinstance(moves[-1], Done)
    assert len(game.racks[0]) - len(after.racks[0]) == best.placed == 6


def test_TIL_13_easy_adds_no_tile_that_would_move_a_kept_jokers_stand_in() -> None:
    """B9 makes B8 J=B9 B10 a valid meld only by moving the joker, which check 3 refuses:
    easy passes it over and still plays the rest of its turn."""
    game = tiles_game(racks=["B9 R6 O1", "B2 B3 B4"],
                      table=["B8 J=B9 B10", "R3 R4 R5"], turn=0, turn_seconds=0)
    after, moves = play_turn(game, choose_easy)
    assert isinstance(moves[-1], Done)
    assert sorted(t.code for t in after.racks[0]) == ["B9", "O1"]
