"""Replays, the bot's part without Discord: a stored game rebuilt, every step told in words
that match the engine, the jump menu, the labels, and the games that cannot be replayed."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from bot.engine.game import Game, Move
from bot.engine.record import read_record, replay_record
from bot.engine.replay import OpenTableView
from bot.engine.serial import to_data
from bot.engine.views import ResultView
from bot.registry import VARIANTS
from bot.replay import (
    SELECT_HANDS,
    ReplayRefused,
    build_replay,
    game_label,
    jump_options,
    show_step,
)
from bot.store import GameRow, GameStatus, HistoryPlayer, HistoryRow, MoveRow, SeatRow

GAMES = {k: v.game for k, v in VARIANTS.items()}


def stored(key: str, players: int = 3, seed: int = 2, **options: object
           ) -> tuple[GameRow, list[MoveRow], list[Game]]:
    """A finished computer game as the store keeps it, and the engine's state after each move."""
    kind = VARIANTS[key]
    level = "easy" if key == "tiles" else "standard"  # the quickest: see test_game_record
    players = min(players, kind.game.max_players)  # Gin is for exactly 2
    game = kind.game.new(players, kind.game.options_type.build(**options), seed)
    states, moves = [game], []
    while not game.is_over:
        assert game.to_move is not None
        move: Move = kind.choose_move(game, game.to_move, random.Random(len(moves)), level)
        game = game.apply(move)[0]
        states.append(game)
        moves.append(MoveRow(len(moves) + 1, move.seat, None, move.to_json(), 0.0))
    seats = tuple(SeatRow(s, 100 + s if s == 0 else None, name, s > 0, False, None)
                  for s, name in enumerate(["alice", "Ada (bot)", "Babbage (bot)",
                                            "Turing (bot)"][:players]))
    row = GameRow(id=7, guild_id=1, channel_id=2, variant=key,
                  options=json.loads(json.dumps(to_data(game.options))), seed=seed,
                  status=GameStatus.FINISHED, host_id=100, state=json.loads(
                      json.dumps(game.to_json())), lobby_message_id=None, table_message_id=None,
                  turn_message_id=None, turn_deadline=None, move_count=len(moves),
                  created_at=0.0, updated_at=0.0, finished_at=1_750_000_000.0, seats=seats)
    return row, moves, states


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_step_tells_the_hands_the_engine_has(key: str) -> None:
    row, moves, states = stored(key)
    replay = build_replay(row, moves)
    assert len(replay.timeline) == len(moves) + len(replay.timeline.hands())  # deals + moves
    for index in range(len(replay.timeline)):
        shown = show_step(replay, index)
        step = replay.timeline.steps[index]
        assert len(shown.text) <= 4096
        if step.kind == "end":
            assert isinstance(shown.picture, ResultView)
            assert "is over**" in shown.text and "{p" not in shown.text
            continue
        assert isinstance(shown.picture, OpenTableView)
        state = states[step.moves]
        for seat, name in enumerate(replay.names):
            line = re.search(rf"\*\*{re.escape(name)}\*\* \((\d+)\): ([^\n(]*)", shown.text)
            assert line, shown.text
            expected = sorted(p.code for p in state.hand_view(seat).pieces)
            assert sorted(c for c in line[2].split() if c != "nothing") == expected
        if step.kind == "move":
            assert f"`{replay.timeline.record.move_line(step.moves)}`" in shown.text
    last = show_step(replay, len(replay.timeline) - 1)
    assert last.text.startswith("**The game is over**")


def test_the_record_offered_replays_to_the_stored_game() -> None:
    row, moves, states = stored("remi", 2, deals=2)
    replay = build_replay(row, moves)
    record = read_record(replay.record, GAMES)
    assert record.about == (("Game", "#7"), ("Finished", "2025-06-15 15:06 UTC"))
    assert [p.computer for p in record.players] == [False, True]
    assert record.players[1].level == "standard"  # the variant's default computer
    assert replay_record(record) == states[-1]
    assert any("total" in line for line in record.results)


def test_a_game_whose_moves_no_longer_replay_is_refused_in_one_line() -> None:
    row, moves, _ = stored("straight", 2)
    bad = [*moves]
    bad[0] = dataclasses.replace(moves[0], move={"kind": "discard", "seat": 0, "card": "KS"})
    with pytest.raises(ReplayRefused, match=r"^Game #7 cannot be replayed: move 1 \("):
        build_replay(row, bad)
    with pytest.raises(ReplayRefused, match="not readable"):
        build_replay(row, [dataclasses.replace(moves[0], move={"kind": "fly", "seat": 0})])
    other = dataclasses.replace(row, state={**(row.state or {}), "seed": 12345})
    with pytest.raises(ReplayRefused, match="no longer lead to the game that was played"):
        build_replay(other, moves)
    with pytest.raises(ReplayRefused, match="colour is not an option of this game"):
        build_replay(dataclasses.replace(row, options={"colour": "blue"}), moves)


def test_the_jump_menu_offers_each_hand_and_the_results_within_discords_limit() -> None:
    row, moves, _ = stored("straight", 2, hands=30, target=10000)
    replay = build_replay(row, moves)
    hands = replay.timeline.hands()
    assert len(hands) == 30
    for index in (0, len(replay.timeline) // 2, len(replay.timeline) - 1):
        options = jump_options(replay, index)
        assert len(options) == SELECT_HANDS + 1 <= 25
        assert options[-1].label == "Results"
        assert sum(o.default for o in options) == 1
        assert all(len(o.label) <= 100 for o in options)
        current = replay.timeline.hand_at(index)
        shown = [o.value for o in options[:-1]]
        if index != len(replay.timeline) - 1:
            assert str(hands[current].deal) in shown  # the window holds the current hand


def test_labels_name_the_game_its_players_date_and_seed_in_100_characters() -> None:
    players = tuple(HistoryPlayer(s, f"player number {s} with a long name", None, False,
                                  s + 1, 0, s == 0, None, None) for s in range(5))
    row = HistoryRow(42, "penang", 1_750_000_000.0, 123456789, players)
    label = game_label(row)
    assert len(label) <= 100
    assert label.startswith("#42 · Penang Rummy · player number 0")
    assert label.endswith("· 2025-06-15 · seed 123456789")
