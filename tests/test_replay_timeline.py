"""Replays (issue 24, item 2), the engine part: a recorded game's steps from the deal to the
results, any step's state rebuilt from checkpoints, and what each step changed."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

from bot.engine.game import Game, Move
from bot.engine.moves import Discard, Done, Draw, LayOff, MeldDown
from bot.engine.record import GameRecord, RecordError, RecordPlayer
from bot.engine.replay import CHECKPOINT_EVERY, Timeline, open_view
from bot.engine.variants.rummi import RummiGame
from bot.engine.variants.tiles import Play
from bot.registry import VARIANTS
from tests.test_game_record import computer_game

KEYS = sorted(VARIANTS)


@cache
def record(key: str, players: int = 2, seed: int = 3) -> tuple[GameRecord, list[Game]]:
    """A computer game's record, and the state after each number of moves (0 = the deal).

    Shared between tests (cached): neither is ever changed."""
    final, moves = computer_game(key, players, seed)
    game = VARIANTS[key].game
    states = [game.new(players, final.options, seed)]
    for move in moves:
        states.append(states[-1].apply(move)[0])
    assert states[-1] == final
    names = tuple(RecordPlayer(f"p{seat}") for seat in range(players))
    return GameRecord(game, key, final.options, seed, names, tuple(moves)), states


@pytest.mark.parametrize("key", KEYS)
def test_steps_run_from_the_deal_through_every_move_to_the_results(key: str) -> None:
    rec, states = record(key)
    timeline = Timeline(rec)
    steps = timeline.steps
    assert steps[0].kind == "deal" and steps[0].moves == 0 and steps[0].hand == 1
    assert steps[-1].kind == "end" and steps[-1].moves == len(rec.moves)
    assert [s.moves for s in steps if s.kind != "deal"] == list(range(1, len(rec.moves) + 1))
    final = states[-1]
    assert [s.hand for s in steps if s.kind == "end"] == [r.number for r in final.history()]
    hands = timeline.hands()
    assert [h.number for h in hands] == [r.number for r in final.history()]
    for span in hands:  # each hand: its deal, then its moves, then its end
        assert steps[span.deal].kind == "deal" and span.end is not None
        assert steps[span.end].kind == "end" and steps[span.end].hand == span.number
        assert all(s.kind == "move" for s in steps[span.deal + 1:span.end])
        assert timeline.hand_at(span.deal) == timeline.hand_at(span.end) == hands.index(span)
    for index, step in enumerate(steps):
        if step.kind == "move":
            assert states[step.moves].table_view().hand_number == step.hand
            assert len(states[step.moves].history()) == len(states[step.moves - 1].history())
        elif step.kind == "deal" and index:
            assert states[step.moves].table_view().hand_number == step.hand


@pytest.mark.parametrize("key", ["straight", "remi", "tiles"])
def test_any_state_is_rebuilt_exactly_in_any_order(key: str) -> None:
    rec, states = record(key)
    assert len(rec.moves) > 3 * CHECKPOINT_EVERY
    timeline = Timeline(rec)
    order = list(range(len(states)))
    random.Random(1).shuffle(order)
    for moves in [*order, *range(len(states) - 1, -1, -1)]:  # jumps, then stepping back
        assert timeline.state(moves) == states[moves]
    with pytest.raises(IndexError):
        timeline.state(len(states))


def test_threads_share_a_timeline() -> None:
    rec, states = record("straight")
    timeline = Timeline(rec)
    rng = random.Random(2)
    wanted = [rng.randrange(len(states)) for _ in range(300)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(timeline.state, wanted))
    assert all(g == states[m] for g, m in zip(got, wanted, strict=True))


@pytest.mark.parametrize("key", KEYS)
def test_a_frame_is_the_move_between_two_states_with_its_events(key: str) -> None:
    rec, states = record(key)
    timeline = Timeline(rec)
    for index, step in enumerate(timeline.steps):
        frame = timeline.frame(index)
        assert frame.step == step and frame.after == states[step.moves]
        if step.kind == "deal":
            assert frame.move is None and frame.before is None
            continue
        assert frame.before == states[step.moves - 1]
        assert frame.move == rec.moves[step.moves - 1]
        assert list(frame.events) == states[step.moves - 1].apply(frame.move)[1]


def test_a_game_decided_in_the_deal_is_a_deal_and_its_end() -> None:
    """Seed 125 deals seat 0 a Tien Hu with four players (RMI-7): no move is made."""
    game = RummiGame.new(4, seed=125)
    assert game.is_over
    rec = GameRecord(RummiGame, "rummi", game.options, 125,
                     tuple(RecordPlayer(f"p{s}") for s in range(4)), ())
    timeline = Timeline(rec)
    assert [(s.kind, s.moves) for s in timeline.steps] == [("deal", 0), ("end", 0)]
    assert timeline.frame(1).move is None and timeline.frame(1).after.is_over


def test_a_move_that_no_longer_replays_is_named() -> None:
    rec, states = record("straight")
    seat = states[0].to_move
    assert seat is not None
    held = set(states[0].hand(seat))
    foreign = next(c for c in states[0].hand(1 - seat) if c not in held)
    bad = (Discard(seat, foreign), *rec.moves[1:])
    with pytest.raises(RecordError, match=r"^move 1 \(1\. p\d: discard \w+\) does not replay"):
        Timeline(dataclasses.replace(rec, moves=bad))
    with pytest.raises(RecordError, match="is not over"):
        Timeline(dataclasses.replace(rec, moves=rec.moves[:10]))


# -- what a step changed -------------------------------------------------------------------


def first(rec: GameRecord, kind: type[Move]) -> int:
    return next(i for i, m in enumerate(rec.moves, start=1) if isinstance(m, kind))


def test_a_draw_marks_the_card_that_came_into_the_hand() -> None:
    rec, states = record("straight", 3)
    n = first(rec, Draw)
    move = rec.moves[n - 1]
    view = open_view(states[n], states[n - 1])
    hand = view.hands[move.seat]
    (drawn,) = Counter(states[n].hand(move.seat)) - Counter(states[n - 1].hand(move.seat))
    assert [hand.pieces[i] for i in hand.gained] == [drawn] and hand.lost == ()
    assert hand.changes() == f"+{drawn.code}"
    assert all(not h.gained and not h.lost for h in view.hands if h.seat != move.seat)
    assert view.melds_marked == ()


def test_a_discard_marks_the_top_of_the_pile() -> None:
    rec, states = record("straight", 3)
    n = first(rec, Discard)
    move = rec.moves[n - 1]
    assert isinstance(move, Discard)
    view = open_view(states[n], states[n - 1])
    assert view.discard_marked and view.table.discard[-1] == move.card
    assert view.hands[move.seat].lost == (move.card,)
    assert not open_view(states[n - 1], states[n - 2]).discard_marked  # a draw: nothing put


def test_a_new_meld_is_marked_whole_and_a_layoff_only_where_it_went() -> None:
    rec, states = record("straight", 3, seed=7)
    n = first(rec, MeldDown)
    view = open_view(states[n], states[n - 1])
    laid = states[n].table_view().melds[-1]
    assert view.marks_in(laid.number) == tuple(range(len(laid.pieces)))
    assert len(view.melds_marked) == 1
    n = first(rec, LayOff)
    move = rec.moves[n - 1]
    assert isinstance(move, LayOff)
    view = open_view(states[n], states[n - 1])
    meld = next(m for m in states[n].table_view().melds if m.number == move.meld)
    assert sorted(meld.pieces[i].code for i in view.marks_in(move.meld)) == \
        sorted(p.code for p, _ in move.cards)
    assert [number for number, _ in view.melds_marked] == [move.meld]


def test_tiles_placed_are_marked_and_a_commit_that_renumbers_marks_nothing() -> None:
    """A play marks the tiles it placed; ``done`` commits the staged table as it stands, so
    though Tile Rummy renumbers the melds then (NOT-11), no meld is marked as changed."""
    rec, states = record("tiles", 2)
    plays = [n for n, m in enumerate(rec.moves, start=1) if isinstance(m, Play)]
    done = [n for n, m in enumerate(rec.moves, start=1) if isinstance(m, Done)]
    commits = [n for n in done if states[n].table_view().melds != states[n - 1].table_view().melds]
    assert plays and commits
    for n in plays[:20]:
        move = rec.moves[n - 1]
        assert isinstance(move, Play)
        view = open_view(states[n], states[n - 1])
        assert sum(len(p) for _, p in view.melds_marked) == len(move.tiles)
    for n in commits[:20]:
        assert open_view(states[n], states[n - 1]).melds_marked == ()


def test_a_deal_marks_nothing() -> None:
    _, states = record("remi")
    view = open_view(states[0])
    assert not view.melds_marked and not view.discard_marked
    assert all(not h.gained and not h.lost for h in view.hands)
    assert [len(h.pieces) for h in view.hands] == [len(states[0].hand(s)) for s in range(2)]
