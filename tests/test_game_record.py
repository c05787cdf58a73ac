"""Game records (issue 24, item 3): one formatter and one parser for every move of every
variant, and a record that replays exactly what was played, or says in one line why not."""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from typing import Any, Union

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import Card, Face, Tile, card_deck, tile_set
from bot.engine.game import Game, Move, Timeout
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, Swap, placed
from bot.engine.notation import CARDS, TILES
from bot.engine.record import (
    MAX_RECORD_CHARS,
    GameRecord,
    RecordError,
    RecordPlayer,
    final_totals,
    format_move,
    notation_of,
    parse_move,
    read_record,
    replay_record,
    unique_names,
    write_record,
)
from bot.engine.variants.gin import GinGame, Knock
from bot.engine.variants.indian import Declare, Drop, IndianGame
from bot.engine.variants.remi import RemiGame, Take
from bot.engine.variants.straight import StraightGame
from bot.engine.variants.tiles import MoveTile, Play, Release, TilesGame
from bot.registry import VARIANTS
from tests.engine_helpers import card, cards, groups, tiles

GAMES = {key: v.game for key, v in VARIANTS.items()}
KEYS = sorted(VARIANTS)


def computer_game(key: str, players: int, seed: int) -> tuple[Game, list[Move]]:
    """A whole game played by the variant's computer, as the bot would play it."""
    kind = VARIANTS[key]
    # The quickest player will do: Tile Rummy's easy one (no table solver); elsewhere the
    # standard one, whose games end soonest (an easy Remi match to 500 can run for ever).
    level = "easy" if key == "tiles" else "standard"
    game = kind.game.new(players, seed=seed)
    moves: list[Move] = []
    while not game.is_over:
        assert game.to_move is not None
        move = kind.choose_move(game, game.to_move, random.Random(f"{seed}:{len(moves)}"),
                                level)
        game, _ = game.apply(move)
        moves.append(move)
    return game, moves


def record_of(key: str, game: Game, moves: list[Move], names: list[str]) -> GameRecord:
    return GameRecord(GAMES[key], key, game.options, game.seed,
                      tuple(RecordPlayer(n) for n in unique_names(names)), tuple(moves),
                      results=("how it ended, in words",), totals=final_totals(game))


# -- one move, one line ---------------------------------------------------------------------


@pytest.mark.parametrize(("move", "line"), [
    (Draw(0, "stock"), "draw stock"),
    (Discard(1, card("7H")), "discard 7H"),
    (Discard(1, card("10D")), "discard 10D"),
    (MeldDown(0, groups("7H 8H 9H | 5C 5D JK=5")), "meld 7H 8H 9H | 5C 5D JK=5"),
    (LayOff(2, (*placed(card("9H")), (card("JK"), Face.of(card("10H")))), 3),
     "layoff 9H JK=10H meld:3"),
    (Swap(0, card("5S"), 12), "swap 5S meld:12"),
    (Take(0, card("JC"), tuple(cards("QC KC"))), "take JC with_cards:QC KC"),
    (Declare(0, card("AC")), "declare AC"),
    (Declare(0, None, groups("2H 3H 4H | QS QD QC")), "declare none groups:2H 3H 4H | QS QD QC"),
    (Drop(0), "drop"),
    (Drop(0, leave=True), "drop leave:yes"),
    (Timeout(3), "timeout"),
    (Play(0, placed(*tiles("R7 R8 R9"))), "play R7 R8 R9"),
    (Play(0, ((tiles("J")[0], Face.make(10, 0)),), 2), "play J=R10 meld:2"),
    (MoveTile(0, tiles("B5")[0], 2), "move B5 from_meld:2"),
    (Release(0, tiles("K4")[0], 3, 1), "release K4 meld:3 source:1"),
])
def test_NOT_3_a_move_is_one_readable_line_in_the_notation(move: Move, line: str) -> None:
    game = TilesGame if move.kind in ("play", "move", "release") else \
        next(g for g in (StraightGame, IndianGame, RemiGame, *GAMES.values())
             if type(move) in g.move_types)
    assert format_move(move, notation_of(game)) == line
    assert parse_move(line, game, move.seat) == move


def strategy(hint: Any, tiles: bool) -> st.SearchStrategy[Any]:
    """Any value of a move field's type, in the pieces of the game (cards or tiles)."""
    pool = tile_set(1, 1) if tiles else card_deck(1, 1)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (Card, Tile) or (origin in (Union, types.UnionType)
                                and set(args) == {Card, Tile}):
        return st.sampled_from(pool)
    if origin in (Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return st.none() | strategy(inner, tiles)
    if hint is Face:
        return st.builds(Face.make, st.integers(1, 13), st.integers(-1, 3))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(strategy(args[0], tiles), min_size=1, max_size=5).map(tuple)
    if origin is tuple:
        return st.tuples(*(strategy(a, tiles) for a in args))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(0, 99)
    if hint is str:
        return st.sampled_from(["stock", "discard", "open", "closed", "pool"])
    raise TypeError(f"no strategy for {hint!r}")


EVERY_MOVE_TYPE = sorted({(m, g) for g in GAMES.values() for m in g.move_types},
                         key=lambda pair: (pair[1].variant, pair[0].kind))


@pytest.mark.parametrize(("move_type", "game"), EVERY_MOVE_TYPE,
                         ids=[f"{g.variant}-{m.kind}" for m, g in EVERY_MOVE_TYPE])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_move_of_every_variant_reads_back_as_written(move_type: type[Move],
                                                           game: type[Game],
                                                           data: st.DataObject) -> None:
    hints = typing.get_type_hints(move_type)
    values = {f.name: data.draw(strategy(hints[f.name], game.tiles))
              for f in dataclasses.fields(move_type) if f.init}
    move = move_type(**values)
    line = format_move(move, notation_of(game))
    assert "\n" not in line and line.startswith(move.kind)
    assert parse_move(line, game, move.seat) == move


def test_a_move_left_without_its_first_field_names_the_next() -> None:
    """Gin's big-gin knock has no card (its first field): the groups keep their name."""
    move = Knock(0, None, groups("AC 2C 3C | QS QH QD"), True)
    line = format_move(move, notation_of(GinGame))
    assert line == "knock groups:AC 2C 3C | QS QH QD gin:yes"
    assert parse_move(line, GinGame, 0) == move


# -- a whole game -------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("players", [2, 4])
def test_a_record_replays_the_game_exactly(key: str, players: int) -> None:
    players = min(players, GAMES[key].max_players)  # Gin is for exactly 2
    game, moves = computer_game(key, players, seed=players * 7)
    names = ["alice", "Ada (bot)", "alice", "bob"][:players]
    text = write_record(record_of(key, game, moves, names))
    assert text.isascii() or "·" in text  # names and notes may hold any letter
    again = read_record(text, GAMES)
    assert again.moves == tuple(moves) and again.seed == game.seed
    assert [p.name for p in again.players] == unique_names(names)  # two alices told apart
    final = replay_record(again)
    assert json.dumps(final.to_json()) == json.dumps(game.to_json())
    assert again.totals == final_totals(game)
    assert write_record(again) == text


def test_a_record_reads_like_the_specs() -> None:
    game, moves = computer_game("straight", 2, seed=3)
    record = record_of("straight", game, moves, ["alice", "Ada (bot)"])
    record = dataclasses.replace(record, players=(
        RecordPlayer("alice"), RecordPlayer("Ada (bot)", computer=True, level="standard")))
    lines = write_record(record).splitlines()
    assert lines[0] == "Rummy game record"
    assert lines[1] == "Variant: straight (Straight Rummy)"
    assert json.loads(lines[2].removeprefix("Options: "))["hands"] is None
    assert lines[3:7] == ["Seed: 3", "Players: 2", "  1. alice",
                          "  2. Ada (bot)  · computer, level standard"]
    assert lines[7] == f"Moves: {len(moves)}"
    assert lines[8].startswith("1. alice: draw ")
    assert lines[-1].startswith("Totals: ")
    again = read_record("\n".join(lines), GAMES)
    assert again.players[1] == RecordPlayer("Ada (bot)", True, "standard")


# -- tampered records ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def straight_record() -> tuple[str, Game]:
    game, moves = computer_game("straight", 3, seed=5)
    return write_record(record_of("straight", game, moves, ["alice", "bob", "carol"])), game


def error_of(text: str, replay: bool = True) -> str:
    with pytest.raises(RecordError) as refused:
        record = read_record(text, GAMES)
        if replay:
            replay_record(record)
    message = str(refused.value)
    assert message and "\n" not in message
    return message


def test_a_move_changed_by_hand_does_not_replay(straight_record: tuple[str, Game]) -> None:
    text, _ = straight_record
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if ": discard " in line)
    number, _, _ = lines[at].partition(". ")
    held = {c.code for c in card_deck(1, 0)}
    lines[at] = lines[at].rsplit(" ", 1)[0] + " " + sorted(held)[0]  # some card, likely not held
    message = error_of("\n".join(lines))
    assert message.startswith(f"move {number} (") and "does not replay" in message


def test_edited_totals_are_caught(straight_record: tuple[str, Game]) -> None:
    text, game = straight_record
    head, _, _ = text.rstrip("\n").rpartition("\n")
    wrong = ", ".join("999" for _ in final_totals(game))
    assert error_of(f"{head}\nTotals: {wrong}\n").startswith("the moves give the totals")


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda t: t.replace("Rummy game record", "A shopping list"), "line 1: a game record"),
    (lambda t: t.replace("Variant: straight", "Variant: poker"), "'poker' is not a variant"),
    (lambda t: t.replace('"target": 100', '"target": 0'), "options: target must be"),
    (lambda t: t.replace('"target": 100', '"colour": 1'), "options: colour is not an option"),
    (lambda t: t.replace("Seed: 5", "Seed: five"), "the seed is not a whole number"),
    (lambda t: t.replace("\n2. ", "\n2. nobody: ", 1), "move 2: it does not start with"),
    (lambda t: t.replace(": draw stock", ": draw", 1), "draw needs source"),
    (lambda t: t.replace(": draw stock", ": fly away", 1), "'fly' is not a move"),
    (lambda t: t.replace(": draw stock", ": discard 11H", 1), "\"11H\" is not a card"),
    (lambda t: t.replace(": draw stock", ": discard #3", 1), "by code, not by position"),
    (lambda t: t.replace(": draw stock", ": draw stock source:discard", 1), "given twice"),
    (lambda t: t.replace("\n1. ", "\n7. ", 1), "move 1 of"),
    (lambda t: t.replace("Players: 3", "Players: 4"), "player 4 of 4 is missing"),
    (lambda t: t.replace("  2. bob", "  2. alice"), "two players have the same name"),
    (lambda t: t.replace("Moves: ", "Moves: 1", 1), "is missing"),
    (lambda t: t.replace("Totals:", "Totals: 1,"), "Totals: 4 numbers for 3 players"),
    (lambda t: t + "Colour: blue\n", "Colour does not belong after the moves"),
])
def test_a_tampered_record_is_refused_in_one_line(straight_record: tuple[str, Game], edit: Any,
                                                  reason: str) -> None:
    text, _ = straight_record
    changed = edit(text)
    assert changed != text
    assert reason in error_of(changed)


def test_a_record_with_fewer_moves_than_the_game_needs(straight_record: tuple[str, Game]
                                                       ) -> None:
    text, _ = straight_record
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Moves: "))
    end = next(i for i, line in enumerate(lines) if line == "Results:")
    kept = [*lines[:start], "Moves: 10", *lines[start + 1:start + 11], *lines[end:]]
    assert "the game is not over" in error_of("\n".join(kept))


def test_a_huge_record_is_refused_unread() -> None:
    assert "too long" in error_of("Rummy game record\n" + "x" * MAX_RECORD_CHARS, replay=False)


def test_NOT_9_tile_records_write_tiles_and_refuse_cards() -> None:
    assert format_move(Play(0, placed(*tiles("R1 B1 K1"))), TILES) == "play R1 B1 K1"
    with pytest.raises(RecordError, match="is not a tile"):
        parse_move("play 7H 8H 9H", TilesGame, 0)
    with pytest.raises(RecordError, match="is not a card"):
        parse_move("discard R7", StraightGame, 0)
    assert format_move(Discard(0, card("QD")), CARDS) == "discard QD"
